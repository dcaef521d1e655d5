/**
 * Product pages rendered by script: the markup is a near-empty shell, but the JSON-LD `Product`
 * the shop ships for search engines names the product, its price, its description and often its
 * specifications (`additionalProperty`). When the visible page carries no content, that
 * declaration is the content: a heading, a price line, the description and a list of properties.
 */
import { Element, Text } from 'domhandler';
import { decodeHTML } from 'entities';
import { collapse, setChildren } from '../dom/dom.util';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

/** What a page declares about its product, as plain text. */
export interface DeclaredProduct {
  name: string | null;
  /** "19.99 USD", "19.99–29.99 EUR". */
  price: string | null;
  description: string | null;
  /** Brand, model and `additionalProperty` entries as name / value pairs. */
  specs: Array<[string, string]>;
}

const PRODUCT_TYPE = /^(?:Product|ProductGroup|IndividualProduct|ProductModel|Vehicle|Car)$/;
/** Shops often put markup inside JSON-LD strings: tags out, entities decoded. */
const TAG = /<[^>]*>/g;
const MAX_FIELD = 20_000;
const MAX_SPECS = 60;

const isObject = (v: Json | undefined): v is JsonObject => !!v && typeof v === 'object' && !Array.isArray(v);

const typeNames = (o: JsonObject): string[] => {
  const t = o['@type'];
  return (Array.isArray(t) ? t : [t])
    .filter((x): x is string => typeof x === 'string')
    .map((x) => x.replace(/^.*[/#:]/, ''));
};

/** A JSON-LD string or number as one line of plain text. */
function plain(v: Json | undefined): string | null {
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return null;
  return collapse(decodeHTML(v.slice(0, MAX_FIELD).replace(TAG, ' '))) || null;
}

/** A name given as a string or as an object with a name (a Brand, an Organization). */
function named(v: Json | undefined): string | null {
  if (isObject(v)) return plain(v.name);
  if (Array.isArray(v)) return named(v[0]);
  return plain(v);
}

/** The description, its paragraphs kept (blank lines or <p>/<br> in the declared string). */
function paragraphs(v: Json | undefined): string | null {
  if (typeof v !== 'string') return null;
  const text = decodeHTML(
    v
      .slice(0, MAX_FIELD)
      .replace(/<\/p>|<br\s*\/?>/gi, '\n\n')
      .replace(TAG, ' '),
  );
  const paras = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map(collapse)
    .filter((p) => p !== '');
  return paras.length > 0 ? paras.join('\n\n') : null;
}

/** The first offer's price, or an aggregate's range, with its currency. */
function priceOf(offers: Json | undefined): string | null {
  const offer = Array.isArray(offers) ? offers.find(isObject) : offers;
  if (!isObject(offer)) return null;
  const currency =
    plain(offer.priceCurrency) ??
    (isObject(offer.priceSpecification) ? plain(offer.priceSpecification.priceCurrency) : null);
  let amount =
    plain(offer.price) ?? (isObject(offer.priceSpecification) ? plain(offer.priceSpecification.price) : null);
  const low = plain(offer.lowPrice);
  const high = plain(offer.highPrice);
  if (!amount && low) amount = high && high !== low ? `${low}–${high}` : low;
  if (!amount) return null;
  return currency ? `${amount} ${currency}` : amount;
}

function specsOf(o: JsonObject): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const brand = named(o.brand);
  if (brand) out.push(['Brand', brand]);
  const model = named(o.model);
  if (model) out.push(['Model', model]);
  const props = Array.isArray(o.additionalProperty) ? o.additionalProperty : [o.additionalProperty];
  for (const p of props) {
    if (!isObject(p) || out.length >= MAX_SPECS) continue;
    const name = plain(p.name);
    const value = plain(p.value) ?? named(p.value);
    if (name && value) out.push([name, p.unitText ? `${value} ${plain(p.unitText) ?? ''}`.trim() : value]);
  }
  return out;
}

/** The first declared product among the page's JSON-LD objects, or null. */
export function declaredProduct(ld: readonly JsonObject[]): DeclaredProduct | null {
  for (const o of ld) {
    if (!typeNames(o).some((t) => PRODUCT_TYPE.test(t))) continue;
    const product: DeclaredProduct = {
      name: plain(o.name),
      price: priceOf(o.offers),
      description: paragraphs(o.description),
      specs: specsOf(o),
    };
    if (product.name || product.description) return product;
  }
  return null;
}

const block = (name: string, text: string): Element => {
  const el = new Element(name, {});
  setChildren(el, [new Text(text)]);
  return el;
};

/**
 * The declared product as a content root (heading, price line, description, property list), when
 * the page's own content does not name it: a page that renders the product (its name, a price, a
 * cart button) but no description shows what it shows, and the declaration adds nothing to it.
 */
export function declaredProductRoot(product: DeclaredProduct, shown: string): Element | null {
  if (product.name && shown.toLowerCase().includes(product.name.toLowerCase())) return null;
  const kids: Element[] = [];
  if (product.name) kids.push(block('h1', product.name));
  if (product.price) kids.push(block('p', `Price: ${product.price}`));
  if (product.description) for (const para of product.description.split('\n\n')) kids.push(block('p', para));
  if (product.specs.length > 0) {
    const ul = new Element('ul', {});
    setChildren(
      ul,
      product.specs.map(([k, v]) => block('li', `${k}: ${v}`)),
    );
    kids.push(ul);
  }
  // a name alone is not content: the page's title says as much
  if (kids.length < 2) return null;
  const root = new Element('div', {});
  setChildren(root, kids);
  return root;
}
