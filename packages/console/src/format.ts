/** An amount in integer cents as the page shows it ($125.00). */
export const money = (cents: number, currency = 'USD') => (cents / 100).toLocaleString('en-US', { style: 'currency', currency });
