import { useEffect, useState } from 'react';
import { fishlog } from './api';
import { may, type MyAccess } from './access';

/**
 * Whether the platform is in maintenance mode (the `MaintenanceMode` system setting: everyone but
 * staff gets 503), for the banner on every screen. Read with Settings.View (GET
 * /api/admin/system-settings/MaintenanceMode) when the console opens, every minute, and at once
 * after a change made in this tab (`announceMaintenance`).
 */
const CHANGED = 'fishlog:maintenance-changed';

/** The last state read, so a screen mounted later (the layout remounts on navigation) shows the banner at once. */
let lastKnown = false;

export function announceMaintenance(): void {
  window.dispatchEvent(new Event(CHANGED));
}

export function useMaintenanceMode(access: MyAccess | undefined): boolean {
  const [on, setOn] = useState(lastKnown);
  const allowed = may(access, 'Settings.View');
  useEffect(() => {
    if (!allowed) return;
    let gone = false;
    const read = () =>
      void fishlog.GET('/api/admin/system-settings/{name}', { params: { path: { name: 'MaintenanceMode' } } }).then(
        ({ data }) => {
          lastKnown = data?.isActive === true && data.value === true;
          if (!gone) setOn(lastKnown);
        },
        () => undefined, // unreachable API: the banner stays as it was; the screens say so themselves
      );
    read();
    const timer = setInterval(read, 60_000);
    window.addEventListener(CHANGED, read);
    return () => {
      gone = true;
      clearInterval(timer);
      window.removeEventListener(CHANGED, read);
    };
  }, [allowed]);
  return on;
}
