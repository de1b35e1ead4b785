import { type ApparelItem, common } from './common.js';

/**
 * Apparel: real products, one item per product (and gender cut), with the sizes and colours it
 * is sold in.
 */

const TOPS = ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL'];
const TOPS_SHORT = ['S', 'M', 'L', 'XL', '2XL'];
const WOMEN = ['XS', 'S', 'M', 'L', 'XL'];
const WADERS = ['S', 'M', 'MK', 'L', 'LK', 'LS', 'XL', 'XLK', '2XL'];
const WOMEN_WADERS = ['XS', 'S', 'M', 'L', 'XL'];
const BOOTS = ['7', '8', '9', '10', '11', '12', '13', '14'];
const WOMEN_BOOTS = ['5', '6', '7', '8', '9', '10', '11'];
const WAIST = ['30', '32', '34', '36', '38', '40', '42'];
const ONE_SIZE = ['One size'];
const GLOVES = ['S/M', 'L/XL'];

type Row = [
  brand: string,
  name: string,
  productLine: string,
  apparelType: string,
  gender: string,
  sizes: string[],
  waterproof: boolean,
  material: string,
  colours: string[],
  priceUsd: number,
  description: string,
];

const ROWS: Row[] = [
  ['Simms', 'G3 Guide Stockingfoot Waders', 'G3 Guide', 'Waders', 'Men', WADERS, true, '4-layer Gore-Tex Pro Shell', ['Pewter'], 750, 'Guide-grade breathable stockingfoot chest waders.'],
  ['Simms', 'Freestone Stockingfoot Waders', 'Freestone', 'Waders', 'Men', WADERS, true, '4-layer Toray QuadraLam', ['Smoke'], 350, 'Breathable stockingfoot chest waders for every-day anglers.'],
  ['Simms', "Women's Freestone Stockingfoot Waders", 'Freestone', 'Waders', 'Women', WOMEN_WADERS, true, '4-layer Toray QuadraLam', ['Gray'], 350, 'Breathable stockingfoot chest waders cut for women.'],
  ['Simms', 'Tributary Stockingfoot Waders', 'Tributary', 'Waders', 'Men', WADERS, true, '3-layer polyester shell', ['Gray'], 230, 'Entry-level breathable chest waders.'],
  ['Simms', 'G3 Guide Wading Boot', 'G3 Guide', 'Wading boots', 'Men', BOOTS, false, 'Synthetic leather upper, Vibram Idrogrip sole', ['Slate'], 260, 'Supportive wading boot with a studdable rubber sole.'],
  ['Simms', 'Freestone Wading Boot', 'Freestone', 'Wading boots', 'Men', BOOTS, false, 'Synthetic upper, rubber sole', ['Gunmetal'], 170, 'Light, durable wading boot.'],
  ['Simms', 'Challenger Jacket', 'Challenger', 'Jacket', 'Men', TOPS, true, '2-layer Toray shell', ['Black', 'Regiment Camo Olive Drab'], 300, 'Waterproof, breathable fishing rain jacket.'],
  ['Simms', 'SolarFlex Hoodie', 'SolarFlex', 'Hoodie', 'Men', TOPS, false, 'Polyester with UPF 30+ sun protection', ['Sterling', 'Cinder'], 70, 'Lightweight sun-protection hoodie.'],
  ['Simms', 'SolarFlex Sunglove', 'SolarFlex', 'Gloves', 'Unisex', ['XS', 'S', 'M', 'L', 'XL'], false, 'Stretch fabric, synthetic suede palm, UPF 50', ['Sterling'], 35, 'Fingerless sun gloves.'],
  ['Simms', 'SunGaiter', 'SunGaiter', 'Neck gaiter', 'Unisex', ONE_SIZE, false, 'Polyester with UPF 50', ['Sterling', 'Hex Flo Camo Timber'], 30, 'Sun-protection neck gaiter.'],
  ['Grundéns', 'Neptune Bib', 'Neptune', 'Bib', 'Men', ['S', 'M', 'L', 'XL', '2XL', '3XL'], true, 'PVC-coated polyester', ['Red', 'Orange', 'Green'], 75, 'Commercial-grade PVC bib trousers.'],
  ['Grundéns', 'Full Share Gore-Tex Bib', 'Full Share', 'Bib', 'Men', TOPS_SHORT, true, '3-layer Gore-Tex', ['Black'], 450, 'Premium breathable offshore bib.'],
  ['Grundéns', 'Weather Watch Hooded Jacket', 'Weather Watch', 'Jacket', 'Men', TOPS, true, 'PVC-coated polyester', ['Red', 'Brown', 'Hi-Vis Yellow'], 120, 'Hooded PVC foul-weather jacket.'],
  ['Grundéns', 'Deck-Boss Ankle Boot', 'Deck-Boss', 'Deck boots', 'Men', BOOTS, true, 'Rubber', ['Brown', 'Dark Slate'], 110, 'Non-marking, slip-resistant ankle deck boot.'],
  ['Huk', 'Icon X Long Sleeve', 'Icon X', 'Shirt', 'Men', TOPS, false, 'Polyester with UPF 30+', ['White', 'Harbor Mist', 'Volcanic Ash'], 45, 'Quick-drying long-sleeve performance shirt.'],
  ['Huk', 'Pursuit Vented Long Sleeve', 'Pursuit', 'Shirt', 'Men', TOPS, false, 'Polyester with UPF 30+, vented back', ['White', 'Titanium Blue'], 50, 'Vented sun-protection fishing shirt.'],
  ['Huk', 'Pursuit Hoodie', 'Pursuit', 'Hoodie', 'Men', TOPS, false, 'Polyester with UPF 30+', ['Harbor Mist', 'Black'], 60, 'Sun-protection hoodie with a thumb-loop cuff.'],
  ['Huk', 'CB Tournament Jacket', 'CB Tournament', 'Jacket', 'Men', TOPS, true, 'Waterproof, breathable nylon', ['Black'], 300, 'Tournament rain jacket for high-speed runs.'],
  ['AFTCO', 'Samurai Sun Protection Hoodie', 'Samurai', 'Hoodie', 'Men', TOPS, false, 'Polyester with UPF 50', ['Silver', 'Light Blue', 'Sand'], 60, 'Lightweight sun hoodie with a neck-covering hood.'],
  ['AFTCO', "Women's Samurai Sun Protection Hoodie", 'Samurai', 'Hoodie', 'Women', WOMEN, false, 'Polyester with UPF 50', ['Glacier', 'Coral'], 60, 'Lightweight sun hoodie cut for women.'],
  ['AFTCO', 'Original Fishing Shorts', 'Original', 'Shorts', 'Men', WAIST, false, 'Polyester', ['Khaki', 'Navy', 'Charcoal'], 60, 'The classic fishing shorts with a hook-and-loop waist and deep cargo pockets.'],
  ['AFTCO', 'Hydronaut Heavy Duty Waterproof Jacket', 'Hydronaut', 'Jacket', 'Men', TOPS, true, '3-layer waterproof, breathable nylon', ['Black', 'Orange'], 350, 'Heavy-duty offshore rain jacket.'],
  ['AFTCO', 'Hydronaut Heavy Duty Waterproof Bib', 'Hydronaut', 'Bib', 'Men', TOPS_SHORT, true, '3-layer waterproof, breathable nylon', ['Black'], 350, 'Heavy-duty offshore bib.'],
  ['AFTCO', 'Solago Sun Gloves', 'Solago', 'Gloves', 'Unisex', GLOVES, false, 'Stretch fabric with UPF 50', ['Gray', 'Blue'], 30, 'Fingerless sun gloves.'],
  ['Columbia', 'PFG Tamiami II Long Sleeve Shirt', 'PFG Tamiami II', 'Shirt', 'Men', TOPS, false, 'Nylon with UPF 40, Omni-Wick', ['White', 'Vivid Blue', 'Fossil'], 55, 'Vented long-sleeve fishing shirt.'],
  ['Columbia', 'PFG Bahama II Short Sleeve Shirt', 'PFG Bahama II', 'Shirt', 'Men', TOPS, false, 'Nylon with UPF 30', ['White', 'Sail', 'Vivid Blue'], 45, 'Vented short-sleeve fishing shirt.'],
  ['Columbia', 'PFG Terminal Tackle Hoodie', 'PFG Terminal Tackle', 'Hoodie', 'Men', TOPS, false, 'Polyester with UPF 50, Omni-Shade', ['Cool Grey', 'Collegiate Navy'], 45, 'Sun hoodie with a stretch knit.'],
  ['Columbia', 'PFG Backcast III Water Short', 'PFG Backcast III', 'Shorts', 'Men', TOPS, false, 'Nylon with UPF 50', ['Fossil', 'Collegiate Navy'], 40, 'Quick-drying water shorts with a mesh liner.'],
  ['Columbia', 'PFG Storm Jacket', 'PFG Storm', 'Jacket', 'Men', TOPS, true, 'Omni-Tech waterproof, breathable nylon', ['Black', 'Grill'], 100, 'Packable waterproof fishing jacket.'],
  ['Costa', 'Fantail', 'Fantail', 'Sunglasses', 'Men', ONE_SIZE, false, 'Bio-based nylon frame, 580G polarized glass lens', ['Matte Black / Blue Mirror', 'Shiny Tortoise / Green Mirror'], 230, 'Polarized sunglasses with a wraparound fit.'],
  ['Costa', 'Reefton', 'Reefton', 'Sunglasses', 'Unisex', ONE_SIZE, false, 'Bio-based nylon frame, 580P polarized polycarbonate lens', ['Matte Black / Gray', 'Matte Gray / Blue Mirror'], 200, 'Light polarized sport sunglasses.'],
  ['Costa', 'Blackfin', 'Blackfin', 'Sunglasses', 'Men', ONE_SIZE, false, 'Bio-based nylon frame, 580G polarized glass lens', ['Matte Black / Gray', 'Blackout / Green Mirror'], 250, 'Large-fit polarized sunglasses for offshore glare.'],
  ['Frogg Toggs', 'Classic Pro Action Rain Suit', 'Pro Action', 'Jacket', 'Men', TOPS, true, 'DriPore nonwoven polypropylene', ['Black', 'Blue', 'Green'], 50, 'Light, breathable rain suit (jacket and pants).'],
  ['Frogg Toggs', 'Hellbender Stockingfoot Waders', 'Hellbender', 'Waders', 'Men', WADERS, true, '4-layer breathable polyester', ['Slate'], 180, 'Breathable stockingfoot chest waders.'],
  ['XTRATUF', '6 in Ankle Deck Boot', 'Ankle Deck Boot', 'Deck boots', 'Men', BOOTS, true, 'Rubber with neoprene lining', ['Brown', 'Black'], 110, 'Slip-resistant, chevron-outsole ankle deck boot.'],
  ['XTRATUF', "Women's 6 in Ankle Deck Boot", 'Ankle Deck Boot', 'Deck boots', 'Women', WOMEN_BOOTS, true, 'Rubber with neoprene lining', ['Brown', 'Navy'], 110, 'Slip-resistant ankle deck boot cut for women.'],
  ['XTRATUF', 'Legacy 15 in Boot', 'Legacy', 'Deck boots', 'Men', BOOTS, true, 'Rubber with neoprene lining', ['Copper/Tan'], 160, 'Tall neoprene-lined rubber boot for commercial and sport fishing.'],
  ['Korkers', "Devil's Canyon Wading Boot", "Devil's Canyon", 'Wading boots', 'Men', BOOTS, false, 'Synthetic upper, interchangeable OmniTrax soles', ['Black/Red'], 220, 'Wading boot with BOA laces and interchangeable soles.'],
  ['Korkers', 'Buckskin Wading Boot', 'Buckskin', 'Wading boots', 'Men', BOOTS, false, 'Synthetic upper, interchangeable OmniTrax soles', ['Brown'], 170, 'Wading boot with interchangeable soles and a leather look.'],
  ['Korkers', 'Darkhorse Wading Boot', 'Darkhorse', 'Wading boots', 'Men', BOOTS, false, 'Synthetic upper, interchangeable OmniTrax soles', ['Black/Red'], 260, 'Supportive wading boot with dual BOA lacing.'],
  ['Orvis', 'PRO Stockingfoot Waders', 'PRO', 'Waders', 'Men', WADERS, true, '4-layer breathable nylon', ['Shadow'], 600, 'Durable, repairable chest waders for guides.'],
  ['Orvis', 'Clearwater Stockingfoot Waders', 'Clearwater', 'Waders', 'Men', WADERS, true, '4-layer breathable polyester', ['Shadow'], 250, 'Breathable chest waders at a moderate price.'],
  ['Orvis', 'PRO Wading Boot', 'PRO', 'Wading boots', 'Men', BOOTS, false, 'Synthetic upper, Michelin rubber sole', ['Shadow'], 250, 'Light, durable wading boot.'],
  ['Redington', 'Sonic-Pro HDZ Stockingfoot Waders', 'Sonic-Pro HDZ', 'Waders', 'Men', WADERS, true, '4-layer breathable nylon, front zipper', ['Gray'], 500, 'Zip-front breathable chest waders.'],
  ['Pelagic', 'Exo-Tech Hooded Fishing Shirt', 'Exo-Tech', 'Hoodie', 'Men', TOPS, false, 'Polyester with UPF 50+', ['Slate', 'Smokey Blue', 'Light Gray'], 65, 'Sun-protection hoodie with a scuba-style hood.'],
  ['Pelagic', 'Vaportek Hooded Fishing Shirt', 'Vaportek', 'Hoodie', 'Men', TOPS, false, 'Polyester with UPF 50+', ['White', 'Aqua'], 55, 'Ultra-light sun-protection hoodie.'],
];

export function apparel(): ApparelItem[] {
  return ROWS.map(([brand, name, productLine, apparelType, gender, sizes, waterproof, material, colours, priceUsd, description]) => ({
    ...common(brand, name, productLine, { description, priceUsd }),
    apparelType,
    sizes,
    gender,
    material,
    waterproof,
    colours,
  }));
}
