/**
 * What maintenance mode (the `MaintenanceMode` system setting) leaves open, in one place: the
 * settings module refuses everything else (503 `system.maintenance` with Retry-After, employees
 * let through), and the OpenAPI document declares that 503 on every operation it can refuse.
 */

/** Seconds a client is told to wait (Retry-After) during maintenance. */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

/**
 * The health probes and the sign-in routes stay open during maintenance, and the staff console's
 * files (its page and scripts carry no token; what it then asks of the API is refused or let
 * through like any other call): staff open screens not loaded yet.
 */
const OPEN_DURING_MAINTENANCE = [/^\/health(\/|\?|$)/, /^\/api\/auth\//, /^\/console(\/|\?|$)/];

/** Whether a request URL (or a route's path) is open during maintenance. */
export function openDuringMaintenance(url: string): boolean {
  return OPEN_DURING_MAINTENANCE.some((pattern) => pattern.test(url));
}
