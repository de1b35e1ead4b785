import type { ReactNode } from 'react';
import { SelectInput, TextInput } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Link, Paper } from '@mui/material';
import type { components } from '@fishlog/client';
import { fishlog } from '../api';
import { Problem, TableSection, useApiRead } from '../action';
import type { Field, Option } from '../RecordForm';
import { active, choices, column, usageColumn, deactivated, list, recordScreens, search, speciesMatching, statusFilter, when, type RecordScreen, type Row } from '../RecordScreens';

type Species = components['schemas']['AdminFishSpecies'];
type Brand = components['schemas']['AdminBrand'];
type LookupValue = components['schemas']['AdminLookupValue'];
type Category = components['schemas']['LookupCategorySummary'];
type Item = components['schemas']['AdminRod'] & { type?: string; [key: string]: unknown };

/**
 * Catalog and reference data: species, brands, the gear catalog (rods, reels, lines, lures,
 * apparel) and lookup values. One screen each, all alike: the list with the API's filters (in the
 * URL) and each record's usage statistics, a record's page with its facts and usage, a change
 * (JSON Merge Patch of the changed fields, with a reason), deactivation or reactivation with a
 * reason (never deletion), and a page to add one.
 */
const WATER_TYPES = ['Freshwater', 'Saltwater', 'Brackish'] as const;
const taxon = (record: Row, rank: 'order' | 'family' | 'genus') => (record as unknown as Species).taxonomy[rank]?.name ?? null;

const species: RecordScreen = {
  noun: 'species',
  name: (r) => String(r.commonName),
  filters: [search('Name contains'), statusFilter, <SelectInput key="waterType" source="waterType" label="Water" choices={choices(WATER_TYPES)} alwaysOn />, <TextInput key="family" source="family" label="Family" />, <TextInput key="order" source="order" label="Order" />],
  columns: [
    column('Scientific name', (r) => <i>{String(r.scientificName)}</i>),
    column('Family', (r) => taxon(r, 'family') ?? '—'),
    column('Water', (r) => list(r.waterTypes)),
    usageColumn('Catches', 'catches'),
    usageColumn('Anglers', 'anglers'),
    usageColumn('Lures made for it', 'lures'),
    active,
  ],
  fields: [
    { source: 'commonName', label: 'Common name', required: true },
    { source: 'scientificName', label: 'Scientific name', required: true },
    { source: 'otherNames', label: 'Other names', kind: 'list' },
    { source: 'waterTypes', label: 'Water types', kind: 'multi', choices: WATER_TYPES, required: true },
    { source: 'family', label: 'Family (for a new genus)', read: (r) => taxon(r as Row, 'family') },
    { source: 'order', label: 'Order (for a new family)', read: (r) => taxon(r as Row, 'order') },
  ],
  facts: (r) => {
    const s = r as unknown as Species;
    return [
      ['Scientific name', <i key="n">{s.scientificName}</i>],
      ['Other names', list(s.otherNames)],
      ['Taxonomy', (['order', 'family', 'genus'] as const).map((rank) => s.taxonomy[rank]?.name).filter(Boolean).join(' › ')],
      ['Water', list(s.waterTypes)],
      ['Catches logged', s.usage.catches],
      ['Anglers who logged it', s.usage.anglers],
      ['Last caught', when(s.usage.lastCaughtAt)],
      ['Catalog lures made for it', s.usage.lures],
      ...deactivated(r),
    ];
  },
};

const GEAR_KINDS = ['Rod', 'Reel', 'Line', 'Lure', 'Apparel'] as const;
const brands: RecordScreen = {
  noun: 'brand',
  name: (r) => String(r.name),
  filters: [search('Name contains'), statusFilter, <SelectInput key="kind" source="kind" label="Makes" choices={choices(GEAR_KINDS)} alwaysOn />, <TextInput key="country" source="country" label="Country (ISO code)" />],
  columns: [
    column('Country', (r) => String(r.countryName)),
    column('Makes', (r) => list(r.gearKinds)),
    column('Catalog items', (r) => (r as unknown as Brand).usage.catalogItems.total),
    usageColumn('In setups', 'setups'),
    active,
  ],
  fields: [
    { source: 'name', label: 'Name', required: true },
    { source: 'country', label: 'Country (ISO code)', required: true },
    { source: 'website', label: 'Website' },
    { source: 'gearKinds', label: 'Makes', kind: 'multi', choices: GEAR_KINDS },
    { source: 'description', label: 'Description', kind: 'long' },
  ],
  facts: (r) => {
    const b = r as unknown as Brand;
    return [
      ['Country', `${b.countryName} (${b.country})`],
      ['Website', b.website],
      ['Description', b.description],
      ['Makes', list(b.gearKinds)],
      ['Catalog items', GEAR_KINDS.map((k) => `${b.usage.catalogItems[k.toLowerCase() as 'rod']} ${k.toLowerCase()}`).join(', ') + ` (${b.usage.catalogItems.total} in all, ${b.usage.inactiveCatalogItems} deactivated)`],
      ['Gear setups using them', b.usage.setups],
      ...deactivated(r),
    ];
  },
};

/** Brands that make `kind`, found by what was typed (GET /api/admin/brands). */
const brandsMaking = (kind: (typeof GEAR_KINDS)[number]) => async (q: string): Promise<Option[]> => {
  const { data } = await fishlog.GET('/api/admin/brands', { params: { query: { kind, status: 'Active', pageSize: 20, ...(q ? { q } : {}) } } });
  return (data ?? []).map((b) => ({ id: b.id, label: b.name }));
};

/** A gear item's type field, its choices, and the fields of its kind after the common ones. */
function gear(kind: (typeof GEAR_KINDS)[number], type: { source: string; label: string; choices: readonly string[] }, own: readonly Field[], facts: (r: Row) => Array<readonly [string, ReactNode]>): RecordScreen {
  return {
    noun: kind === 'Apparel' ? 'apparel item' : kind.toLowerCase(),
    name: (r) => `${(r as unknown as Item).brand.name} ${String(r.name)}`,
    filters: [search('Name contains'), statusFilter, <SelectInput key={type.source} source={type.source} label={type.label} choices={choices(type.choices)} alwaysOn />],
    columns: [
      column(type.label, (r) => String(r[type.source])),
      column('Price', (r) => (typeof r.priceUsd === 'number' ? `$${r.priceUsd.toFixed(2)}` : '—')),
      usageColumn('In setups', 'setups'),
      usageColumn('Anglers', 'anglers'),
      active,
    ],
    fields: [
      { source: 'brandId', label: 'Brand', kind: 'pick', required: true, only: 'create', search: brandsMaking(kind) },
      { source: 'name', label: 'Name', required: true },
      { source: type.source, label: type.label, kind: 'select', choices: type.choices, required: true },
      ...own,
      { source: 'productLine', label: 'Product line' },
      { source: 'modelNumber', label: 'Model number' },
      { source: 'priceUsd', label: 'Price (USD)', kind: 'number' },
      { source: 'description', label: 'Description', kind: 'long' },
    ],
    facts: (r) => {
      const item = r as unknown as Item;
      return [
        ['Brand', `${item.brand.name}${item.brand.isActive ? '' : ' (deactivated)'}`],
        [type.label, String(r[type.source])],
        ...facts(r),
        ['Product line', item.productLine],
        ['Model number', item.modelNumber],
        ['Price', typeof item.priceUsd === 'number' ? `$${item.priceUsd.toFixed(2)}` : null],
        ['Description', item.description],
        ['Gear setups using it', item.usage.setups],
        ['Anglers with it in a setup', item.usage.anglers],
        ...('catches' in item.usage ? [['Catches with it', (item.usage as { catches: number }).catches] as const] : []),
        ...deactivated(r),
      ];
    },
  };
}

const num = (source: string, label: string, required = false): Field => ({ source, label, kind: 'number', required });
const show = (...names: Array<[string, string]>) => (r: Row) => names.map(([source, label]) => [label, r[source] === null || r[source] === undefined ? null : Array.isArray(r[source]) ? list(r[source]) : String(r[source])] as const);

const rods = gear(
  'Rod',
  { source: 'rodType', label: 'Rod type', choices: ['Spinning', 'Casting', 'Conventional', 'Trolling', 'Fly', 'Ice', 'Surf'] },
  [
    num('lengthIn', 'Length (in)', true),
    { source: 'power', label: 'Power (not fly rods)', kind: 'select', choices: ['Ultra-light', 'Light', 'Medium-light', 'Medium', 'Medium-heavy', 'Heavy', 'Extra-heavy'] },
    { source: 'action', label: 'Action', kind: 'select', choices: ['Slow', 'Moderate', 'Moderate-fast', 'Fast', 'Extra-fast'], required: true },
    num('pieces', 'Pieces', true),
    { source: 'material', label: 'Material', kind: 'select', choices: ['Graphite', 'Fiberglass', 'Composite'] },
    num('flyLineWeight', 'Fly line weight (fly rods)'),
    num('lineMinLb', 'Line from (lb)'),
    num('lineMaxLb', 'Line to (lb)'),
    num('lureMinG', 'Lure from (g)'),
    num('lureMaxG', 'Lure to (g)'),
  ],
  show(
    ['lengthLabel', 'Length'],
    ['power', 'Power'],
    ['action', 'Action'],
    ['pieces', 'Pieces'],
    ['material', 'Material'],
    ['flyLineWeight', 'Fly line weight'],
    ['lineMinLb', 'Line from (lb)'],
    ['lineMaxLb', 'Line to (lb)'],
    ['lureMinG', 'Lure from (g)'],
    ['lureMaxG', 'Lure to (g)'],
  ),
);
const reels = gear(
  'Reel',
  { source: 'reelType', label: 'Reel type', choices: ['Spinning', 'Baitcasting', 'Spincast', 'Conventional', 'Fly'] },
  [{ source: 'size', label: 'Size' }, num('gearRatio', 'Gear ratio', true), num('weightG', 'Weight (g)', true), num('maxDragKg', 'Max drag (kg)', true), { source: 'bearings', label: 'Bearings' }, num('retrieveCm', 'Retrieve per turn (cm)')],
  show(['size', 'Size'], ['gearRatio', 'Gear ratio'], ['weightG', 'Weight (g)'], ['maxDragKg', 'Max drag (kg)'], ['bearings', 'Bearings'], ['retrieveCm', 'Retrieve per turn (cm)']),
);
const lines = gear(
  'Line',
  { source: 'lineType', label: 'Line type', choices: ['Monofilament', 'Fluorocarbon', 'Braid', 'Copolymer'] },
  [num('testLb', 'Test (lb)', true), num('diameterMm', 'Diameter (mm)', true), num('spoolLengthM', 'Spool length (m)'), { source: 'colour', label: 'Colour' }],
  show(['testLb', 'Test (lb)'], ['diameterMm', 'Diameter (mm)'], ['spoolLengthM', 'Spool length (m)'], ['colour', 'Colour']),
);
const targets = (r: Row) => (r.targetSpecies ?? []) as Array<{ id: string; commonName: string }>;
const lures = gear(
  'Lure',
  {
    source: 'lureType',
    label: 'Lure type',
    choices: ['Crankbait', 'Lipless crankbait', 'Jerkbait', 'Minnow', 'Topwater', 'Spinnerbait', 'Bladed jig', 'Buzzbait', 'Jig', 'Soft plastic', 'Swimbait', 'Spoon', 'Inline spinner', 'Blade bait'],
  },
  [
    { source: 'colour', label: 'Colour', required: true },
    num('weightG', 'Weight (g; not soft plastics)'),
    num('lengthCm', 'Length (cm)'),
    num('divingDepthMinM', 'Dives from (m)'),
    num('divingDepthMaxM', 'Dives to (m)'),
    {
      source: 'targetSpeciesIds',
      label: 'Target species',
      kind: 'picks',
      search: speciesMatching,
      read: (r) => targets(r as Row).map((s) => s.id),
      labels: (r) => targets(r as Row).map((s) => ({ id: s.id, label: s.commonName })),
    },
  ],
  (r) => [
    ...show(['colour', 'Colour'], ['weightG', 'Weight (g)'], ['lengthCm', 'Length (cm)'], ['divingDepthMinM', 'Dives from (m)'], ['divingDepthMaxM', 'Dives to (m)'])(r),
    ['Target species', list(targets(r).map((s) => s.commonName))],
  ],
);
const apparel = gear(
  'Apparel',
  { source: 'apparelType', label: 'Apparel type', choices: ['Jacket', 'Bib', 'Pants', 'Shorts', 'Shirt', 'Hoodie', 'Waders', 'Wading boots', 'Deck boots', 'Hat', 'Gloves', 'Neck gaiter', 'Sunglasses'] },
  [
    { source: 'sizes', label: 'Sizes', kind: 'list', required: true },
    { source: 'gender', label: 'Cut', kind: 'select', choices: ['Men', 'Women', 'Unisex', 'Youth'] },
    { source: 'material', label: 'Material' },
    { source: 'waterproof', label: 'Waterproof', kind: 'yesno' },
    { source: 'colours', label: 'Colours', kind: 'list' },
  ],
  show(['sizes', 'Sizes'], ['gender', 'Cut'], ['material', 'Material'], ['waterproof', 'Waterproof'], ['colours', 'Colours']),
);

const lookups: RecordScreen = {
  noun: 'lookup value',
  name: (r) => `${String(r.category)}.${String(r.code)}`,
  filters: [search('Code or label contains'), <TextInput key="category" source="category" label="Category" alwaysOn />, <SelectInput key="active" source="active" label="Status" choices={[{ id: 'true', name: 'Active' }, { id: 'false', name: 'Deactivated' }]} alwaysOn />],
  columns: [
    column('Label', (r) => String(r.label)),
    column('Order', (r) => Number(r.sortOrder)),
    column('Records using it', (r) => usage(r as unknown as LookupValue)),
    active,
  ],
  fields: [
    { source: 'category', label: 'Category', required: true, only: 'create' },
    { source: 'code', label: 'Code (PascalCase)', required: true, only: 'create' },
    { source: 'label', label: 'Label', required: true },
    num('sortOrder', 'Display order'),
    { source: 'description', label: 'Description', kind: 'long' },
  ],
  facts: (r) => {
    const v = r as unknown as LookupValue;
    return [
      ['Label', v.label],
      ['Description', v.description],
      ['Display order', v.sortOrder],
      ['Records using it', usage(v)],
      ...(v.isActive ? [] : [['Deactivated', `${when(v.deactivatedAt)}: ${v.deactivationReason ?? ''}`] as const]),
    ];
  },
  reasonOnCreate: true,
  defaultFilter: {},
  header: () => <Categories />,
};

const usage = (v: LookupValue) => (v.usage.records === null ? 'not counted (no module checks this category)' : v.usage.records);

/** GET /api/admin/lookups/categories: each vocabulary with its counts; its name filters the list to it. */
function Categories() {
  const { data, problem } = useApiRead(() => fishlog.GET('/api/admin/lookups/categories'), []);
  return (
    <Paper sx={{ m: 2, p: 2 }}>
      <Problem text={problem} />
      <TableSection
        label="Categories"
        columns={['Category', 'Values (active)', 'Checked by the API']}
        rows={(data ?? []).map((c: Category) => ({
          key: c.category,
          cells: [
            <Link key="c" component={RouterLink} to={`/lookups?filter=${encodeURIComponent(JSON.stringify({ category: c.category }))}`}>
              {c.category}
            </Link>,
            `${c.values} (${c.activeValues})`,
            c.validated ? 'yes' : 'no',
          ],
        }))}
      />
    </Paper>
  );
}

/** The screens of this chunk, by resource (App.tsx names them, with who may use them). */
export const { RecordList: CatalogList, RecordShow: CatalogShow, RecordCreate: CatalogCreate } = recordScreens({ species, brands, rods, reels, lines, lures, apparel, lookups });

