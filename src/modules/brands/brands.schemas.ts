import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { GEAR_KINDS } from '../gear/index.js';

export const GearKindSchema = Type.Union(
  GEAR_KINDS.map((k) => Type.Literal(k)),
  { description: 'A kind of catalog gear' },
);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2 country code', examples: ['US', 'JP'] });

const brandProperties = {
  id: Uuid,
  name: Type.String({ examples: ['Shimano'] }),
  country: CountryCode,
  countryName: Type.String({ description: 'English name of the country', examples: ['Japan'] }),
  website: Nullable(Type.String({ examples: ['https://fish.shimano.com'] })),
  description: Nullable(Type.String()),
  gearKinds: Type.Array(GearKindSchema, { description: 'Kinds of gear the brand makes' }),
  isActive: Type.Boolean({ description: 'false: deactivated (still readable by id and where referenced, not listed)' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const Brand = Type.Object(brandProperties, { additionalProperties: false, $id: 'Brand' });

const CatalogCounts = Type.Object(
  {
    rod: Type.Integer(),
    reel: Type.Integer(),
    line: Type.Integer(),
    lure: Type.Integer(),
    apparel: Type.Integer(),
    total: Type.Integer(),
  },
  { additionalProperties: false, description: 'Active catalog items of the brand, by kind' },
);

export const BrandUsageSchema = Type.Object(
  { catalogItems: CatalogCounts, setups: Type.Integer({ description: "Anglers' gear setups that use an item of the brand" }) },
  { additionalProperties: false },
);

export const BrandDetail = Type.Object({ ...brandProperties, usage: BrandUsageSchema }, { additionalProperties: false, $id: 'BrandDetail' });

export const AdminBrand = Type.Object(
  {
    ...brandProperties,
    deactivatedAt: Nullable(Timestamp),
    usage: Type.Object(
      { ...BrandUsageSchema.properties, inactiveCatalogItems: Type.Integer({ description: 'Deactivated catalog items of the brand' }) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'AdminBrand' },
);

const filters = {
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Name search; tolerates typos' })),
  country: Type.Optional(CountryCode),
  kind: Type.Optional(GearKindSchema),
};
export const BrandsQuery = listQuery(filters);
export const AdminBrandsQuery = listQuery({
  ...filters,
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('all')], { description: 'Which brands to list (default all)' })),
});

const Website = Type.String({ maxLength: 300, pattern: '^https?://[^\\s/$.?#][^\\s]*$', description: 'http(s) URL', examples: ['https://www.example.com'] });

export const CreateBrandBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80 }),
    country: CountryCode,
    website: Type.Optional(Nullable(Website)),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    gearKinds: Type.Optional(Type.Array(GearKindSchema, { uniqueItems: true, maxItems: GEAR_KINDS.length })),
  },
  { additionalProperties: false },
);
export type CreateBrandInput = Static<typeof CreateBrandBody>;

export const UpdateBrandBody = Type.Object(
  {
    name: Type.Optional(CreateBrandBody.properties.name),
    country: Type.Optional(CountryCode),
    website: CreateBrandBody.properties.website,
    description: CreateBrandBody.properties.description,
    gearKinds: CreateBrandBody.properties.gearKinds,
    reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why (kept in the audit log)' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateBrandInput = Static<typeof UpdateBrandBody>;

