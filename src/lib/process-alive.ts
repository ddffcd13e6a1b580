// Whether a process id names a live process on this machine (signal 0 only asks). EPERM: it exists but belongs
// to another user.
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
