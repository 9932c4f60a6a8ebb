/**
 * A port another process holds is an operator's mistake with one fix: name the setting to change.
 * `(EADDRINUSE)` stays in the message: supervisors and tests grep for it.
 */
export class PortInUseError extends Error {
  readonly code = 'EADDRINUSE';
  override readonly name = 'PortInUseError';
}

/** Turns a listen's EADDRINUSE into a PortInUseError naming `setting`; other errors pass through. */
export function namePortSetting(error: unknown, setting: string, port: number, detail = ''): unknown {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return error;
  return new PortInUseError(`${setting}=${port} is in use (EADDRINUSE${detail}); set ${setting} to a free port, or stop what holds it`);
}
