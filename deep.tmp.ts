import { parseDocument } from 'htmlparser2';
import { processHtml } from './packages/content/src';
const depth = 100_000;
const html = `<html><body>${'<div>'.repeat(depth)}<p>deep text, here, and here</p>${'</div>'.repeat(depth)}</body></html>`;
let t = Date.now(); parseDocument(html); console.log('parse', Date.now() - t);
t = Date.now(); processHtml(html, { url: 'https://e.com', formats: ['markdown'] }); console.log('process', Date.now() - t);
