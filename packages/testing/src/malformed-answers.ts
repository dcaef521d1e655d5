/**
 * Malformed model answers of the kinds users of self-hosted extraction report (fences, prose,
 * reasoning, near-JSON, wrong types, wrappers, empty "success"), for one schema. Each kind says
 * what the service must make of it when the model gives that same answer every time: `ok` with
 * the data, or `failed` (500 EXTRACTION_FAILED, refunded). Used by the tests and bench:extract.
 */

export const MALFORMED_SCHEMA = { name: 'string', price: 'number', inStock: 'boolean', tags: ['string'] };

const GOOD = { name: 'Blue Kettle', price: 39.9, inStock: true, tags: ['kitchen', 'tea'] };
const json = JSON.stringify(GOOD);

export interface MalformedAnswer {
  kind: string;
  text: string;
  expect: { ok: true; data: Record<string, unknown> } | { ok: false };
}

const ok = (data: Record<string, unknown> = GOOD) => ({ ok: true as const, data });
const failed = { ok: false as const };

export const MALFORMED_ANSWERS: MalformedAnswer[] = [
  { kind: 'clean JSON', text: json, expect: ok() },
  { kind: 'json code fence', text: `\`\`\`json\n${json}\n\`\`\``, expect: ok() },
  { kind: 'bare code fence', text: `\`\`\`\n${json}\n\`\`\``, expect: ok() },
  {
    kind: 'prose before and after',
    text: `Here is the data you asked for:\n${json}\nLet me know if you need more!`,
    expect: ok(),
  },
  {
    kind: '<think> reasoning first',
    text: `<think>The page says 39.90, so {price} is 39.9.</think>\n${json}`,
    expect: ok(),
  },
  {
    kind: 'trailing commas',
    text: `{"name": "Blue Kettle", "price": 39.9, "inStock": true, "tags": ["kitchen", "tea",],}`,
    expect: ok(),
  },
  {
    kind: 'single quotes',
    text: `{'name': 'Blue Kettle', 'price': 39.9, 'inStock': true, 'tags': ['kitchen', 'tea']}`,
    expect: ok(),
  },
  {
    kind: 'unquoted keys',
    text: `{name: "Blue Kettle", price: 39.9, inStock: true, tags: ["kitchen", "tea"]}`,
    expect: ok(),
  },
  {
    kind: 'cut off by the token limit',
    text: `{"name": "Blue Kettle", "price": 39.9, "inStock": true, "tags": ["kitchen", "tea"`,
    expect: ok(),
  },
  {
    kind: 'comments in JSON',
    text: `{\n  "name": "Blue Kettle", // the title\n  "price": 39.9, /* EUR */\n  "inStock": true,\n  "tags": ["kitchen", "tea"]\n}`,
    expect: ok(),
  },
  {
    kind: 'Python literals (True, None)',
    text: `{"name": "Blue Kettle", "price": 39.9, "inStock": True, "tags": ["kitchen", "tea"], "note": None}`,
    expect: ok(),
  },
  {
    kind: 'number as a string ("39.90")',
    text: `{"name": "Blue Kettle", "price": "39.90", "inStock": true, "tags": ["kitchen", "tea"]}`,
    expect: ok(),
  },
  {
    kind: 'boolean as a string ("true")',
    text: `{"name": "Blue Kettle", "price": 39.9, "inStock": "true", "tags": ["kitchen", "tea"]}`,
    expect: ok(),
  },
  {
    kind: 'one value where a list is wanted',
    text: `{"name": "Blue Kettle", "price": 39.9, "inStock": true, "tags": "kitchen"}`,
    expect: ok({ ...GOOD, tags: ['kitchen'] }),
  },
  {
    kind: '"N/A" for a missing number',
    text: `{"name": "Blue Kettle", "price": "N/A", "inStock": true, "tags": ["kitchen", "tea"]}`,
    expect: ok({ ...GOOD, price: null }),
  },
  { kind: 'wrapped in {"data": …}', text: `{"data": ${json}}`, expect: ok() },
  { kind: 'wrapped in an array [ … ]', text: `[${json}]`, expect: ok() },
  { kind: 'double-encoded JSON string', text: JSON.stringify(json), expect: ok() },
  {
    kind: 'smart quotes',
    text: `{“name”: “Blue Kettle”, “price”: 39.9, “inStock”: true, “tags”: [“kitchen”, “tea”]}`,
    expect: ok(),
  },
  {
    kind: 'number with a unit ("39.90 EUR")',
    text: `{"name": "Blue Kettle", "price": "39.90 EUR", "inStock": true, "tags": ["kitchen"]}`,
    expect: failed,
  },
  { kind: 'empty object {}', text: '{}', expect: failed },
  {
    kind: 'every field null',
    text: '{"name": null, "price": null, "inStock": null, "tags": null}',
    expect: failed,
  },
  {
    kind: 'empty strings and lists',
    text: '{"name": "", "price": null, "inStock": null, "tags": []}',
    expect: failed,
  },
  {
    kind: 'the schema echoed back',
    text: '{"name": {"type": "string"}, "price": {"type": "number"}, "inStock": {"type": "boolean"}, "tags": {"type": "array"}}',
    expect: failed,
  },
  { kind: 'prose only, no JSON', text: 'I could not find a product on this page.', expect: failed },
  { kind: 'empty answer', text: '', expect: failed },
  {
    kind: 'only reasoning, cut off',
    text: '<think>Let me look at the page. The price seems to be',
    expect: failed,
  },
];
