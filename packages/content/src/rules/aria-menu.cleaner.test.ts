import { processHtml } from '../index';

const URL = 'https://code.example.dev/trending';
const repo = (i: number): string => `<article class="row"><h2><a href="/r/${i}">maker${i} / tool-${i}</a></h2>
  <p>A small command-line tool number ${i} that turns notes into tidy static pages.</p></article>`;
const languages = ['Ada', 'Bash', 'C', 'Dart', 'Elixir', 'Fortran', 'Go', 'Haskell', 'Java', 'Kotlin', 'Lua'];

describe('ARIA menus', () => {
  it('drops a dropdown of menu items inside the content region', () => {
    const menu = languages
      .flatMap((l) => [`${l} language`, `${l} dialects`, `${l} scripts`])
      .map((l, i) => `<a role="menuitemradio" href="/trending/${i}"><span>${l}</span></a>`)
      .join('');
    const html = `<html><body><main><h1>Trending</h1><div class="box-header">
      <details><summary>Language: Any</summary><div class="select-menu-list">${menu}</div></details></div>
      ${Array.from({ length: 5 }, (_, i) => repo(i)).join('\n')}</main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('maker3 / tool-3');
    expect(out.text).not.toContain('Haskell');
  });

  it('keeps lists of links without a menu role', () => {
    const list = languages.map((l) => `<li><a href="/l/${l}">${l} language guide</a></li>`).join('');
    const html = `<html><body><main><h1>Guides</h1><p>Every guide we have written, by language.</p>
      <ul>${list}</ul></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('Haskell language guide');
  });
});
