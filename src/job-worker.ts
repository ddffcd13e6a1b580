// Entry point of a job worker thread (spawned through compose.ts; an extra entrypoint of the single
// executable): the same job table as the main thread, served by src/jobs/worker.ts.
import { jobTable } from "./compose.ts";
import { serveJobWorker } from "./jobs/worker.ts";

serveJobWorker(jobTable());
