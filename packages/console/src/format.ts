/** An amount in integer cents as the page shows it ($125.00). */
export const money = (cents: number, currency = 'USD') => (cents / 100).toLocaleString('en-US', { style: 'currency', currency });

/** An API's value as people read it: "PendingApproval" is "Pending approval", "SignIn" "Sign in". */
export const label = (value: string) => value.replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`);
