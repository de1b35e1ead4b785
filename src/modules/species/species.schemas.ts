import { Type, type Static } from 'typebox';
import { listQuery } from '../../core/http/pagination.js';
import { ActivityFilterEnum, pascalEnum } from '../../core/http/enums.js';
import { mergePatchSchema } from '../../core/http/merge-patch.js';
import { Timestamp, Uuid } from '../../core/http/schemas.js';
import { TAXON_RANKS, WATER_TYPES } from './species.tables.js';

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    description ? { description } : {},
  );

/** Order, Family or Genus (the taxonomic ranks; answered only, so no older spelling to accept). */
export const TaxonRankEnum = pascalEnum(TAXON_RANKS, 'Taxonomic rank: Order, Family or Genus.');

export const WaterTypeSchema = literals(WATER_TYPES, 'Where the species is caught: Freshwater, Saltwater, Brackish');
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const Taxon = Type.Object(
  {
    id: Uuid,
    rank: TaxonRankEnum.output,
    name: Type.String({ description: 'Scientific name', examples: ['Centrarchidae'] }),
    commonName: Nullable(Type.String({ examples: ['Sunfishes'] })),
  },
  { additionalProperties: false, $id: 'Taxon' },
);

export const Taxonomy = Type.Object(
  { order: Nullable(Type.Ref('Taxon')), family: Nullable(Type.Ref('Taxon')), genus: Nullable(Type.Ref('Taxon')) },
  { additionalProperties: false, description: 'Order, family and genus (Nelson 2006, as used by ITIS)' },
);

const speciesProperties = {
  id: Uuid,
  commonName: Type.String({ examples: ['Largemouth bass'] }),
  otherNames: Type.Array(Type.String(), { description: 'Other common and regional names', examples: [['Black bass', 'Bucketmouth']] }),
  scientificName: Type.String({ examples: ['Micropterus salmoides'] }),
  waterTypes: Type.Array(WaterTypeSchema),
  taxonomy: Taxonomy,
  isActive: Type.Boolean({ description: 'false: deactivated by an administrator (still readable by id and where referenced, not listed)' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const FishSpecies = Type.Object(speciesProperties, { additionalProperties: false, $id: 'FishSpecies' });

export const SpeciesRef = Type.Object(
  { id: Uuid, commonName: Type.String(), scientificName: Type.String() },
  { additionalProperties: false, $id: 'SpeciesRef', description: 'A species by name' },
);

export const FishSpeciesDetail = Type.Object(
  {
    ...speciesProperties,
    relatedSpecies: Type.Object(
      {
        sameGenus: Type.Array(Type.Ref('SpeciesRef'), { description: 'Other active species of the genus' }),
        sameFamily: Type.Array(Type.Ref('SpeciesRef'), { description: 'Active species of other genera of the family' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, $id: 'FishSpeciesDetail' },
);

export const SpeciesUsage = Type.Object(
  {
    catches: Type.Integer({ description: 'Catches logged with this species' }),
    anglers: Type.Integer({ description: 'Anglers who logged it' }),
    lastCaughtAt: Nullable(Timestamp),
    lures: Type.Integer({ description: 'Catalog lures made for it' }),
  },
  { additionalProperties: false },
);

export const AdminFishSpecies = Type.Object(
  {
    ...speciesProperties,
    deactivatedAt: Nullable(Timestamp),
    usage: SpeciesUsage,
  },
  { additionalProperties: false, $id: 'AdminFishSpecies' },
);

export const FishFamily = Type.Object(
  {
    id: Uuid,
    name: Type.String({ examples: ['Centrarchidae'] }),
    commonName: Nullable(Type.String({ examples: ['Sunfishes'] })),
    order: Nullable(Type.Ref('Taxon')),
    speciesCount: Type.Integer({ description: 'Active species of the family in the catalogue' }),
  },
  { additionalProperties: false, $id: 'FishFamily' },
);

const filters = {
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Name search (common, other or scientific name); tolerates typos' })),
  family: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'Family, scientific name (case-insensitive)', examples: ['Centrarchidae'] })),
  genus: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'Genus (case-insensitive)', examples: ['Micropterus'] })),
  order: Type.Optional(Type.String({ minLength: 1, maxLength: 80, description: 'Order (case-insensitive)', examples: ['Perciformes'] })),
  waterType: Type.Optional(WaterTypeSchema),
};

export const SpeciesQuery = listQuery(filters);
export const AdminSpeciesQuery = listQuery({
  ...filters,
  status: Type.Optional(ActivityFilterEnum.input),
});
export const FamiliesQuery = listQuery({ order: filters.order });

const SCIENTIFIC = '^[A-Z][a-z]+ [a-z]+( [a-z]+)?$';
const Name = Type.String({ minLength: 1, maxLength: 100 });

export const CreateSpeciesBody = Type.Object(
  {
    commonName: Name,
    scientificName: Type.String({ pattern: SCIENTIFIC, maxLength: 120, description: 'Binomial (or trinomial) name; its first word is the genus', examples: ['Micropterus floridanus'] }),
    otherNames: Type.Optional(Type.Array(Name, { maxItems: 20, uniqueItems: true })),
    waterTypes: Type.Array(WaterTypeSchema, { minItems: 1, maxItems: WATER_TYPES.length, uniqueItems: true }),
    family: Type.Optional(Type.String({ pattern: '^[A-Z][a-z]+idae$', description: 'Family of a genus new to the catalogue (ignored when it matches the known one)', examples: ['Centrarchidae'] })),
    familyCommonName: Type.Optional(Name),
    order: Type.Optional(Type.String({ pattern: '^[A-Z][a-z]+iformes$', description: 'Order of a family new to the catalogue', examples: ['Perciformes'] })),
    orderCommonName: Type.Optional(Name),
  },
  { additionalProperties: false },
);
export type CreateSpeciesInput = Static<typeof CreateSpeciesBody>;

/** A species' changeable fields (and the taxonomy hints of creation): what a PATCH, merged onto the species, must amount to. */
export const SpeciesBody = Type.Object(
  {
    ...CreateSpeciesBody.properties,
    otherNames: Type.Optional(CreateSpeciesBody.properties.otherNames),
    reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why (kept in the audit log)' })),
  },
  { additionalProperties: false },
);
export type SpeciesChanges = Static<typeof SpeciesBody>;
/** JSON Merge Patch of a species: the fields sent change; null clears `otherNames`. */
export const UpdateSpeciesBody = mergePatchSchema(SpeciesBody, {
  description: 'JSON Merge Patch (RFC 7396): only the fields sent change; `otherNames: null` clears the other names (a 400 for a required field).',
  examples: [{ otherNames: ['Florida largemouth'], reason: 'Common name used by anglers in Florida' }],
});


export const speciesSchemas = [Taxon, SpeciesRef, FishSpecies, FishSpeciesDetail, FishFamily];
