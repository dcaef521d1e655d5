import { processHtml } from '/work/main/packages/content/src';

const para =
  '<div class="item"><p>Some paragraph text, with commas, and <a href="/x">links</a> here and there.</p></div>\n';
const html = `<html><body><main>${para.repeat(Math.ceil(50e6 / para.length))}</main></body></html>`;
const t = Date.now();
const out = processHtml(html, { url: 'https://e.com/', formats: ['markdown'] });
console.log(
  'MB',
  (html.length / 1e6).toFixed(1),
  'ms',
  Date.now() - t,
  'md',
  out.markdown.length,
  'rss MB',
  (process.memoryUsage().rss / 1e6).toFixed(0),
);
