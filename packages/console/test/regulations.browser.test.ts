import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createLoggedCatch, createUser, FISH_OHIO, inches, MN, PLACES, SPECIES } from '../../../test/factories.js';
import { projectRoot } from '../../../src/paths.js';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's regulations screens in Chromium (./browser.ts): jurisdictions (and the license-year
 * import's check), rule-set versions, Master Angler submissions decided with a reason, each checked
 * through the API after; read-only for Regulations.View, absent without it.
 */
describe.skipIf(!haveChromium('packages/console/test/regulations.browser.test.ts'))('the console\'s regulations screens in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'regs_owner' });
  const { signIn, expectAccessible } = session;
  const api = session.get;
  const open = async (page: Page, screen: string) => {
    await page.getByRole('menuitem', { name: screen, exact: true }).click();
    await page.getByRole('heading', { name: screen }).first().waitFor();
  };
  /** Picks `option` in the search-as-you-type field `label` of `form`. */
  const pick = async (page: Page, form: ReturnType<Page['getByRole']>, label: string, typed: string, option: string) => {
    await form.getByLabel(label).fill(typed);
    await page.getByRole('option', { name: option }).click();
  };

  it('the Owner adds a jurisdiction, changes and deactivates it from its row with reasons, checks a license-year file (the API\'s refusal shown) and adds a rule-set version', async () => {
    const page = await signIn(session.owner);
    await open(page, 'Jurisdictions');
    const minnesota = page.getByRole('row').filter({ hasText: 'US-MN Minnesota' });
    await minnesota.waitFor();
    await expectAccessible(page, 'regulations-jurisdictions');

    // A file whose year is loaded already: the check shows the API's problem.
    await page.getByLabel('License-year file').setInputFiles(path.join(projectRoot, 'reference-data/regulations/rules-2025.json'));
    await page.getByText('rules-2025.json').waitFor();
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByRole('region', { name: 'Load a license year' }).getByRole('alert').filter({ hasText: /\(request [\w-]+\)/ }).waitFor();

    await page.getByRole('link', { name: 'New jurisdiction' }).click();
    const form = page.getByRole('form', { name: 'New jurisdiction' });
    await form.getByLabel('Code (e.g. US-MN)').fill('US-ZZ');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Testland');
    await form.getByLabel('Agency name').fill('Testland Fish and Game');
    await form.getByLabel('Agency website').fill('https://fishgame.testland.example');
    await form.getByLabel('License year starts: month').fill('4');
    await form.getByLabel('License year starts: day').fill('1');
    await form.getByLabel('Reason').fill('A state joins the program');
    await form.getByRole('button', { name: 'Add' }).click();
    const row = page.getByRole('row').filter({ hasText: 'US-ZZ Testland' });
    await row.getByRole('button', { name: 'US-ZZ Testland' }).click();
    const panel = page.getByRole('region', { name: 'US-ZZ Testland' });
    const change = panel.getByRole('form', { name: 'Change jurisdiction US-ZZ Testland' });
    await change.getByLabel('Agency name').fill('Testland Wildlife Agency');
    await change.getByLabel('Reason').fill('The agency was renamed');
    await change.getByRole('button', { name: 'Save' }).click();
    await page.getByText('US-ZZ Testland changed').waitFor();
    await expectAccessible(page, 'regulations-jurisdiction-expanded');
    const deactivate = page.getByRole('form', { name: 'Deactivate US-ZZ Testland' });
    await deactivate.getByLabel('Reason to deactivate').fill('Created by mistake');
    await deactivate.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('US-ZZ Testland deactivated').waitFor();
    const [testland] = await api('/api/admin/regulations/jurisdictions?q=Testland&active=false');
    expect(testland).toMatchObject({ code: 'US-ZZ', agencyName: 'Testland Wildlife Agency', licenseYearStartMonth: 4, isActive: false, deactivationReason: 'Created by mistake' });

    await open(page, 'Rule sets');
    await page.getByRole('link', { name: 'New rule set' }).click();
    const rules = page.getByRole('form', { name: 'New rule set' });
    await pick(page, rules, 'Jurisdiction', 'Minn', 'US-MN Minnesota');
    await pick(page, rules, 'Species', 'Walleye', 'Walleye');
    await rules.getByLabel('Effective from').fill('2025-09-01');
    await rules.getByLabel('Daily bag').fill('3');
    await rules.getByLabel('Minimum length (in)').fill('15');
    await rules.getByLabel('Source (the regulation booklet)').fill('https://www.dnr.state.mn.us/regulations/fishing/index.html');
    await rules.getByLabel('Reason').fill('Emergency walleye conservation rule');
    await expectAccessible(page, 'regulations-rule-set-new');
    await rules.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Rule set added').waitFor();
    const versions = await api(`/api/admin/regulations/rule-sets?jurisdictionId=${MN}&speciesId=${SPECIES.walleye}&statewide=true&pageSize=100`);
    expect(versions.find((v: { effectiveFrom: string }) => v.effectiveFrom === '2025-09-01')).toMatchObject({ dailyBag: 3, minLength: { in: 15 }, isActive: true });
    await page.context().close();
  });

  it('the Owner adds a special water with its GeoJSON boundary (JSON that does not parse is refused in the page), and approves a Master Angler submission with the reason the angler reads', async () => {
    const angler = await createUser(session.t, { username: 'regs_angler' });
    const { catchId } = await createLoggedCatch(session.t, angler.userId, { ...PLACES.columbus, stateCode: 'US-OH', speciesId: SPECIES.muskie, lengthCm: inches(44) });
    const submitted = await session.t.app.inject({ method: 'POST', url: '/api/regulations/master-angler/submissions', headers: angler.headers, payload: { programId: FISH_OHIO, catchId, witness: 'Jo' } });
    expect(submitted.statusCode).toBe(201);

    const page = await signIn(session.owner);
    await open(page, 'Zones and waters');
    await page.getByRole('link', { name: 'New zone' }).click();
    const zone = page.getByRole('form', { name: 'New zone' });
    await pick(page, zone, 'Jurisdiction', 'Minn', 'US-MN Minnesota');
    await zone.getByLabel('Kind').click();
    await page.getByRole('option', { name: 'WaterBody' }).click();
    await zone.getByRole('textbox', { name: 'Name', exact: true }).fill('Test Bay');
    const boundary = zone.getByLabel('Boundary (GeoJSON Polygon or MultiPolygon, WGS 84)');
    await boundary.fill('{"type": "Polygon", "coordinates": [[[-93.7, 46.2]');
    await zone.getByLabel('Reason').fill('Special walleye rules on the bay');
    await zone.getByRole('button', { name: 'Add' }).click();
    await zone.getByRole('alert').filter({ hasText: 'not valid JSON' }).waitFor();
    await boundary.fill(JSON.stringify({ type: 'Polygon', coordinates: [[[-93.7, 46.2], [-93.6, 46.2], [-93.6, 46.3], [-93.7, 46.3], [-93.7, 46.2]]] }));
    await zone.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Zone added').waitFor();
    expect(await api('/api/admin/regulations/zones?q=Test%20Bay')).toMatchObject([{ name: 'Test Bay', kind: 'WaterBody', jurisdictionCode: 'US-MN', pointCount: 5, isActive: true }]);

    await open(page, 'Angler submissions');
    const card = page.getByRole('article', { name: 'Muskellunge for Fish Ohio' });
    await card.getByText('Witness').waitFor();
    await expectAccessible(page, 'regulations-submissions');
    await card.getByLabel('Reason the angler reads').fill('Length checked on the photo');
    await card.getByRole('button', { name: 'Approve Muskellunge for Fish Ohio' }).click();
    await page.getByText('Muskellunge for Fish Ohio: approved').waitFor();
    const mine = await api(`/api/regulations/master-angler/submissions/${submitted.json().id}`, angler);
    expect(mine).toMatchObject({ status: 'Approved' });
    expect(mine.history.at(-1)).toMatchObject({ status: 'Approved', reason: 'Length checked on the photo' });
    await page.context().close();
  });

  it('the Owner issues an emergency order closing walleye statewide for a week', async () => {
    const page = await signIn(session.owner);
    await open(page, 'Emergency orders');
    await page.getByRole('link', { name: 'New emergency order' }).click();
    const order = page.getByRole('form', { name: 'New emergency order' });
    await pick(page, order, 'Jurisdiction', 'Minn', 'US-MN Minnesota');
    await pick(page, order, 'Species (empty: all)', 'Walleye', 'Walleye');
    await order.getByLabel('Starts on').fill('2026-05-01');
    await order.getByLabel('Ends on').fill('2026-05-07');
    await order.getByLabel('Closed').click();
    await page.getByRole('option', { name: 'yes' }).click();
    await order.getByLabel('Reason').fill('Spawning run came late: season opener delayed');
    await expectAccessible(page, 'regulations-emergency-order-new');
    await order.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('cell', { name: 'Spawning run came late: season opener delayed' }).waitFor();
    expect(await api(`/api/admin/regulations/emergency-orders?jurisdictionId=${MN}&speciesId=${SPECIES.walleye}`)).toEqual(
      expect.arrayContaining([expect.objectContaining({ startsOn: '2026-05-01', endsOn: '2026-05-07', overrides: { closed: true }, reason: 'Spawning run came late: season opener delayed' })]),
    );
    await expectAccessible(page, 'regulations-emergency-orders');
    await page.context().close();
  });

  it('the Owner reads the other regulations lists (axe on each) and a Master Angler program under its row', async () => {
    const page = await signIn(session.owner);
    for (const screen of ['Zones and waters', 'Rule sets', 'Angler programs']) {
      await open(page, screen);
      await page.getByRole('columnheader', { name: 'Name' }).waitFor();
      await expectAccessible(page, `regulations-${screen.replace(/\W+/g, '-').toLowerCase()}`);
    }
    await page.getByRole('button', { name: 'US-OH Fish Ohio' }).click();
    const program = page.getByRole('region', { name: 'US-OH Fish Ohio' });
    await program.getByText('Species minimums').waitFor();
    await program.getByRole('form', { name: 'Change Master Angler program US-OH Fish Ohio' }).waitFor();
    await expectAccessible(page, 'regulations-program');
    await page.context().close();
  });

  it('a Moderator granted Regulations.View reads the regulations without change forms; one without it has no regulations screen', async () => {
    const page = await session.signInStaff(session.owner, { username: 'regs_reader', role: 'Moderator', permissions: { 'Regulations.View': true }, waitFor: 'Jurisdictions' });
    await open(page, 'Jurisdictions');
    await expect(page.getByRole('link', { name: 'New jurisdiction' }).count()).resolves.toBe(0);
    await expect(page.getByRole('region', { name: 'Load a license year' }).count()).resolves.toBe(0);
    // From the keyboard: the row's name is the button that opens it.
    await page.getByRole('button', { name: 'US-MN Minnesota' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: 'US-MN Minnesota' }).getByText('Usage').waitFor();
    await expect(page.getByRole('form', { name: /Change jurisdiction|Deactivate/ }).count()).resolves.toBe(0);
    await page.context().close();

    const otherPage = await session.signInStaff(session.owner, { username: 'regs_other', role: 'Moderator', permissions: { 'Users.View': true }, waitFor: 'Users' });
    await expect(otherPage.getByRole('menuitem', { name: 'Jurisdictions' }).count()).resolves.toBe(0);
    await otherPage.context().close();
  });
});
