import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's Master Angler programs in Chromium (./browser.ts): a new program with its award
 * levels and species minimums typed as rows (species picked by name), then a change of a minimum,
 * a species removed and an award level added, with the reason the API keeps in a new revision;
 * each checked through the API after.
 */
describe.skipIf(!haveChromium('packages/console/test/programs.browser.test.ts'))('the console\'s Master Angler programs in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'programs_owner' });
  /** Picks `option` in the search-as-you-type field `label` of `within`. */
  const pick = async (page: Page, within: Locator, label: string, typed: string, option: string) => {
    await within.getByRole('combobox', { name: label, exact: true }).fill(typed);
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  const program = async () => {
    const found = await session.get('/api/admin/regulations/programs?q=Lunker');
    expect(found).toHaveLength(1);
    return found[0] as { id: string; revision: number; awardLevels: unknown[]; species: Array<{ commonName: string; minLengthIn: number | null; isActive?: boolean }> };
  };

  it('a Regulations.Edit Admin adds a program with award levels and species minimums, then changes a minimum, drops a species and adds a level with a reason', async () => {
    const page = await session.signInStaff(session.owner, { username: 'programs_admin', role: 'Admin', permissions: { 'Regulations.View': true, 'Regulations.Edit': true }, waitFor: 'Angler programs' });
    await page.getByRole('menuitem', { name: 'Angler programs', exact: true }).click();
    await page.getByRole('link', { name: 'New Master Angler program' }).click();
    const form = page.getByRole('form', { name: 'New Master Angler program' });
    // The field keeps showing the name picked (not the id) once its next search, for that name, answers without it.
    const searchedForName = page.waitForResponse((r) => r.url().includes('/api/admin/regulations/jurisdictions') && r.url().includes('q=US-MN'));
    await pick(page, form, 'Jurisdiction', 'Minnesota', 'US-MN Minnesota');
    await searchedForName;
    await expect(form.getByRole('combobox', { name: 'Jurisdiction', exact: true }).inputValue()).resolves.toBe('US-MN Minnesota');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Lunker Club');
    await form.getByLabel('Program page').fill('https://lunkers.example.org/club');
    await form.getByLabel('Source year').fill('2026');
    await form.getByRole('combobox', { name: 'Measured by' }).click();
    await page.getByRole('option', { name: 'Length', exact: true }).click();
    for (const [i, [award, count]] of [['Lunker', '1'], ['Master Lunker', '2']].entries()) {
      await form.getByRole('button', { name: 'Add award level' }).click();
      const level = form.getByRole('group', { name: `Award level ${i + 1}` });
      await level.getByRole('textbox', { name: 'Award', exact: true }).fill(award!);
      await level.getByRole('textbox', { name: 'Species needed', exact: true }).fill(count!);
    }
    for (const [i, [species, length]] of [['Walleye', '28'], ['Northern pike', '40']].entries()) {
      await form.getByRole('button', { name: 'Add species minimum' }).click();
      const row = form.getByRole('group', { name: `Species minimum ${i + 1}` });
      await pick(page, row, 'Species', species!, species!);
      await row.getByLabel('Minimum length (in)').fill(length!);
    }
    await form.getByLabel('Reason').fill('A new club program');
    await session.expectAccessible(page, 'program-new');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Master Angler program added').waitFor();
    const added = await program();
    expect(added).toMatchObject({ revision: 1, awardLevels: [{ name: 'Lunker', speciesCount: 1 }, { name: 'Master Lunker', speciesCount: 2 }] });
    expect(added.species.map((s) => [s.commonName, s.minLengthIn])).toEqual(expect.arrayContaining([['Walleye', 28], ['Northern pike', 40]]));

    // Its row opens the change form, filled in with the rows as they are.
    await page.getByRole('textbox', { name: 'Name contains' }).fill('Lunker');
    await page.getByRole('button', { name: 'US-MN Lunker Club' }).click();
    const change = page.getByRole('form', { name: 'Change Master Angler program US-MN Lunker Club' });
    const walleye = change.getByRole('group', { name: /^Species minimum \d/ }).filter({ has: page.locator('input[value="Walleye"]') });
    await walleye.getByLabel('Minimum length (in)').fill('26');
    const pike = change.getByRole('group', { name: /^Species minimum \d/ }).filter({ has: page.locator('input[value="Northern pike"]') });
    await pike.getByRole('button', { name: /^Remove species minimum/ }).click();
    await change.getByRole('button', { name: 'Add award level' }).click();
    const third = change.getByRole('group', { name: 'Award level 3' });
    await third.getByRole('textbox', { name: 'Award', exact: true }).fill('Legend');
    await third.getByRole('textbox', { name: 'Species needed', exact: true }).fill('5');
    await change.getByLabel('Reason').fill('2027 minimums');
    await session.expectAccessible(page, 'program-change');
    await change.getByRole('button', { name: 'Save' }).click();
    await page.getByText('US-MN Lunker Club changed').waitFor();
    const changed = await program();
    expect(changed.revision).toBe(2);
    expect(changed.awardLevels).toEqual([{ name: 'Lunker', speciesCount: 1 }, { name: 'Master Lunker', speciesCount: 2 }, { name: 'Legend', speciesCount: 5 }]);
    expect(changed.species.map((s) => [s.commonName, s.minLengthIn])).toEqual([['Walleye', 26]]);
    const revisions = await session.get(`/api/admin/regulations/programs/${changed.id}/revisions`);
    expect(revisions[0]).toMatchObject({ revision: 2, reason: '2027 minimums' });
    await page.context().close();
  });
});
