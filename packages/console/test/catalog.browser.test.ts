import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createEntryWithCatch, createUser } from '../../../test/factories.js';
import { haveChromium, useConsoleInBrowser } from './browser.js';

/**
 * The console's catalog and reference data screens in Chromium (./browser.ts): species, brands,
 * the gear catalog and lookup values are listed with their usage, made, changed and deactivated
 * through the page, each checked through the API after; and shown only to staff who may manage them.
 */
describe.skipIf(!haveChromium('packages/console/test/catalog.browser.test.ts'))('the console\'s catalog screens in Chromium', { timeout: 90_000 }, () => {
  const session = useConsoleInBrowser({ owner: 'catalog_owner' });
  const { signIn, expectAccessible } = session;
  const api = session.get;
  /** Opens a screen from the menu. */
  const open = async (page: Page, screen: string) => {
    await page.getByRole('menuitem', { name: screen, exact: true }).click();
    await page.getByRole('heading', { name: screen }).first().waitFor();
  };

  it('the Owner finds Walleye with its usage, adds a species, renames it with a reason and deactivates it with a reason', async () => {
    const angler = await createUser(session.t, { username: 'catalog_angler' });
    await createEntryWithCatch(session.t, angler); // a walleye
    const page = await signIn(session.owner);
    await open(page, 'Species');
    await page.getByRole('textbox', { name: 'Name contains' }).fill('Walleye');
    const walleye = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Walleye', exact: true }) });
    await walleye.getByRole('cell', { name: 'Sander vitreus' }).waitFor();
    expect(await walleye.getByRole('cell').nth(4).textContent()).toBe('1'); // catches
    await expectAccessible(page, 'catalog-species');

    await page.getByRole('link', { name: 'New species' }).click();
    const form = page.getByRole('form', { name: 'New species' });
    await form.getByLabel('Common name').fill('Test pikeperch');
    await form.getByLabel('Scientific name').fill('Sander testensis');
    await form.getByLabel('Other names').fill('Zander-ish, Test perch');
    await form.getByRole('checkbox', { name: 'Freshwater' }).check();
    await expectAccessible(page, 'catalog-species-new');
    await form.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('heading', { name: 'Test pikeperch', exact: true }).waitFor();
    const facts = page.getByRole('definition');
    await facts.getByText('Percidae', { exact: false }).first().waitFor();

    const change = page.getByRole('form', { name: 'Change species Test pikeperch' });
    await change.getByLabel('Common name').fill('Test zander');
    await change.getByLabel('Reason').fill('The common name anglers use');
    await change.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Test zander', exact: true }).waitFor();

    const deactivate = page.getByRole('form', { name: 'Deactivate Test zander' });
    await deactivate.getByLabel('Reason to deactivate').fill('Not a real species: a test');
    await deactivate.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('heading', { name: 'Test zander (deactivated)' }).waitFor();
    await page.getByRole('form', { name: 'Reactivate Test zander' }).waitFor();
    await expectAccessible(page, 'catalog-species-page');

    const [created] = await api('/api/admin/species?q=Test%20zander&status=All');
    expect(created).toMatchObject({ commonName: 'Test zander', scientificName: 'Sander testensis', otherNames: ['Zander-ish', 'Test perch'], waterTypes: ['Freshwater'], isActive: false });
    const audit = await api(`/api/admin/audit-logs?targetId=${created.id}`);
    expect(audit.map((e: { reason: string | null }) => e.reason)).toEqual(expect.arrayContaining(['The common name anglers use', 'Not a real species: a test']));
    await page.context().close();
  });

  it('the Owner adds a brand and a rod of that brand (picked by typing its name), and a lookup value with its reason; a duplicate code shows the API\'s problem and keeps what was typed', async () => {
    const page = await signIn(session.owner);
    await open(page, 'Brands');
    await page.getByRole('link', { name: 'New brand' }).click();
    const brandForm = page.getByRole('form', { name: 'New brand' });
    await brandForm.getByLabel('Name').fill('Lakeside Test Rods');
    await brandForm.getByLabel('Country (ISO code)').fill('CA');
    await brandForm.getByRole('checkbox', { name: 'Rod' }).check();
    await brandForm.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('heading', { name: 'Lakeside Test Rods', exact: true }).waitFor();

    await open(page, 'Gear: rods');
    await page.getByRole('link', { name: 'New rod' }).click();
    const rodForm = page.getByRole('form', { name: 'New rod' });
    // The brand is picked from the keyboard: type part of its name, arrow down to it, Enter.
    await rodForm.getByLabel('Brand').fill('Lakeside');
    await page.getByRole('option', { name: 'Lakeside Test Rods' }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(rodForm.getByLabel('Brand').inputValue()).resolves.toBe('Lakeside Test Rods');
    await rodForm.getByLabel('Name').fill('Walleye Special 6\'6"');
    await rodForm.getByLabel('Rod type').click();
    await page.getByRole('option', { name: 'Spinning' }).click();
    await rodForm.getByLabel('Length (in)').fill('78');
    await rodForm.getByLabel('Power (not fly rods)').click();
    await page.getByRole('option', { name: 'Medium-light' }).click();
    await rodForm.getByLabel('Action').click();
    await page.getByRole('option', { name: 'Fast', exact: true }).click();
    await rodForm.getByLabel('Pieces').fill('2');
    await rodForm.getByLabel('Price (USD)').fill('129.99');
    await expectAccessible(page, 'catalog-rod-new');
    await rodForm.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('heading', { name: 'Lakeside Test Rods Walleye Special 6\'6"', exact: true }).waitFor();
    await page.getByText('Gear setups using it').waitFor();
    const [rod] = await api('/api/admin/gear/rods?q=Walleye%20Special');
    expect(rod).toMatchObject({ brand: { name: 'Lakeside Test Rods' }, rodType: 'Spinning', lengthIn: 78, power: 'Medium-light', action: 'Fast', pieces: 2, priceUsd: 129.99, isActive: true });
    const [brand] = await api('/api/admin/brands?q=Lakeside');
    expect(brand.usage.catalogItems).toMatchObject({ rod: 1, total: 1 });

    await open(page, 'Lookup values');
    await page.getByRole('region', { name: 'Categories' }).waitFor();
    await page.getByRole('link', { name: 'New lookup value' }).click();
    const valueForm = page.getByRole('form', { name: 'New lookup value' });
    await valueForm.getByLabel('Category').fill('TestBottom');
    await valueForm.getByLabel('Code (PascalCase)').fill('Marl');
    await valueForm.getByLabel('Label').fill('Marl');
    await valueForm.getByLabel('Reason').fill('Anglers on prairie lakes asked for it');
    await valueForm.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('heading', { name: 'TestBottom.Marl', exact: true }).waitFor();
    await expectAccessible(page, 'catalog-lookup-page');

    await page.goBack();
    await valueForm.getByLabel('Category').fill('TestBottom');
    await valueForm.getByLabel('Code (PascalCase)').fill('Marl');
    await valueForm.getByLabel('Label').fill('Marl again');
    await valueForm.getByLabel('Reason').fill('A second time');
    await valueForm.getByRole('button', { name: 'Add' }).click();
    await valueForm.getByRole('alert').filter({ hasText: /\(request [\w-]+\)/ }).waitFor();
    expect(await valueForm.getByLabel('Label').inputValue()).toBe('Marl again');

    const [value] = await api('/api/admin/lookups/values?category=TestBottom');
    expect(value).toMatchObject({ code: 'Marl', label: 'Marl', isActive: true });
    const audit = await api(`/api/admin/audit-logs?targetId=${value.id}`);
    expect(audit[0].reason).toBe('Anglers on prairie lakes asked for it');
    await page.context().close();
  });

  it('the Owner opens the other catalog lists (axe on each)', async () => {
    const page = await signIn(session.owner);
    for (const screen of ['Brands', 'Gear: reels', 'Gear: lines', 'Gear: apparel', 'Lookup values']) {
      await open(page, screen);
      await page.getByRole('columnheader', { name: 'Name' }).or(page.getByText(/^No .* yet/)).first().waitFor();
      await expectAccessible(page, `catalog-${screen.replace(/\W+/g, '-').toLowerCase()}`);
    }
    await page.context().close();
  });

  it('the Owner adds a lure with the species it is made for', async () => {
    const page = await signIn(session.owner);
    await open(page, 'Gear: lures');
    await page.getByRole('columnheader', { name: 'Name' }).waitFor();
    await expectAccessible(page, 'catalog-gear-lures');
    const [maker] = await api('/api/admin/brands?kind=Lure&status=Active&pageSize=1');
    await page.getByRole('link', { name: 'New lure' }).click();
    const form = page.getByRole('form', { name: 'New lure' });
    await form.getByLabel('Brand').fill(maker.name);
    await page.getByRole('option', { name: maker.name, exact: true }).click();
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Test Shad 7');
    await form.getByLabel('Lure type').click();
    await page.getByRole('option', { name: 'Crankbait', exact: true }).click();
    await form.getByLabel('Colour').fill('Firetiger');
    await form.getByLabel('Weight (g; not soft plastics)').fill('11');
    await form.getByLabel('Target species').fill('Walleye');
    await page.getByRole('option', { name: 'Walleye', exact: true }).click();
    await form.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('heading', { name: `${maker.name} Test Shad 7`, exact: true }).waitFor();
    await page.getByRole('definition').filter({ hasText: /^Walleye$/ }).waitFor();
    const [lure] = await api('/api/admin/gear/lures?q=Test%20Shad');
    expect(lure).toMatchObject({ name: 'Test Shad 7', lureType: 'Crankbait', colour: 'Firetiger', weightG: 11, targetSpecies: [{ commonName: 'Walleye' }] });
    await page.context().close();
  });

  it('a Moderator granted Lookups.Manage sees only Lookup values; an Admin denied Species.Manage sees no Species screen', async () => {
    const page = await session.signInStaff(session.owner, { username: 'catalog_curator', role: 'Moderator', permissions: { 'Lookups.Manage': true }, waitFor: 'Lookup values' });
    expect((await page.getByRole('menuitem').allTextContents()).map((m) => m.trim())).toEqual(['Lookup values']);
    await page.context().close();

    const adminPage = await session.signInStaff(session.owner, { username: 'catalog_admin', role: 'Admin', permissions: { 'Species.Manage': false }, waitFor: 'Brands' });
    await expect(adminPage.getByRole('menuitem', { name: 'Species' }).count()).resolves.toBe(0);
    await adminPage.context().close();
  });
});
