import { Type, type Static } from 'typebox';
import { mergePatchSchema } from '../../core/http/merge-patch.js';
import { listQuery } from '../../core/http/pagination.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { ActivityFilterEnum } from '../../core/http/enums.js';
import { GEAR_KINDS, GearKindEnum } from './brands.kinds.js';

export const GearKindSchema = GearKindEnum.output;
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
  kind: Type.Optional(GearKindEnum.input),
};
export const BrandsQuery = listQuery(filters);
export const AdminBrandsQuery = listQuery({
  ...filters,
  status: Type.Optional(ActivityFilterEnum.input),
});

const Website = Type.String({ maxLength: 300, pattern: '^https?://[^\\s/$.?#][^\\s]*$', description: 'http(s) URL', examples: ['https://www.example.com'] });

export const CreateBrandBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 80 }),
    country: CountryCode,
    website: Type.Optional(Nullable(Website)),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    gearKinds: Type.Optional(Type.Array(GearKindEnum.input, { uniqueItems: true, maxItems: GEAR_KINDS.length * 2 })),
  },
  { additionalProperties: false },
);
export type CreateBrandInput = Static<typeof CreateBrandBody>;

/** A brand's changeable fields with the reason of the change: what a PATCH, merged onto the brand, must amount to. */
export const BrandBody = Type.Object(
  { ...CreateBrandBody.properties, reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why (kept in the audit log)' })) },
  { additionalProperties: false },
);
export type BrandChanges = Static<typeof BrandBody>;
/** JSON Merge Patch of a brand: the fields sent change; null clears website, description or gearKinds. */
export const UpdateBrandBody = mergePatchSchema(BrandBody, {
  description: 'JSON Merge Patch (RFC 7396): only the fields sent change; null clears `website`, `description` or `gearKinds` (a 400 for `name` or `country`).',
  examples: [{ website: 'https://www.rapala.com', reason: 'The brand moved its site' }],
});


/** A list query as sent (either spelling of kind and status) → the stored filter values. */
export function brandFilterFromApi<Q extends { kind?: string | undefined; status?: string | undefined }>(query: Q) {
  return { ...query, kind: GearKindEnum.fromApi(query.kind), status: ActivityFilterEnum.fromApi(query.status) };
}
