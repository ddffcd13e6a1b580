// /api/v1/accounts: registration, credentials, profile reads, and the default avatar/header images.
// Static paths (verify_credentials, update_credentials, lookup) are registered before `/:id`; Elysia's
// router also prefers static segments over parameters.
import { Elysia } from "elysia";
import type { Deps } from "../../../deps.ts";
import { registrationRoutes } from "./accounts/registration.ts";
import { credentialsRoutes } from "./accounts/credentials.ts";
import { readRoutes } from "./accounts/reads.ts";
import { defaultImageRoutes } from "./accounts/images.ts";

export const accountsRoutes = (deps: Deps) =>
  new Elysia({ name: "accounts-routes", seed: deps.store.dir })
    .use(registrationRoutes(deps))
    .use(credentialsRoutes(deps))
    .use(readRoutes(deps))
    .use(defaultImageRoutes(deps));
