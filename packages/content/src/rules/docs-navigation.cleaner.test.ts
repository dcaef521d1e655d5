import { processHtml } from '../index';

const URL = 'https://docs.example.com/guide/config';

// A docs theme that puts everything inside <main> under neutral class names: the section tree,
// the "On this page" list, the feedback and edit widgets and the prev/next links are found by
// their shape and wording, not by their class.
const sidebar = `<div class="col-a"><ul>
  <li><a href="/guide/intro">Introduction</a></li>
  <li>Getting started<ul><li><a href="/guide/install">Installation</a></li><li><a href="/guide/config">Configuring the widget</a></li><li><a href="/guide/deploy">Deploying to production</a></li></ul></li>
  <li>Guides<ul><li><a href="/guide/auth">Authentication and sessions</a></li><li><a href="/guide/cache">Caching strategies</a></li></ul></li>
  <li>Reference<ul><li><a href="/guide/api">API reference</a></li><li><a href="/guide/cli">Command line tool</a></li></ul></li>
</ul></div>`;
const toc = `<div class="col-c"><p>On this page</p><ul><li><a href="#file">The configuration file</a></li>
  <li><a href="#settings">Settings</a></li><li><a href="#env">Environment variables</a></li></ul></div>`;
const versions = `<ul class="switch"><li><a href="/en/dev/config">dev</a></li><li><a href="/en/3.2/config">3.2</a></li>
  <li><a href="/en/3.1/config">3.1</a></li><li><a href="/pt-br/3.2/config">pt-br</a></li></ul>`;
const widgets = `<div class="c1"><p>Was this page helpful?</p><button>Yes</button><button>No</button></div>
  <div class="c2"><a href="https://git.example.com/docs/edit/main/config.md">Edit this page</a></div>
  <div class="c3"><a href="/guide/install">Previous: Installation</a> <a href="/guide/deploy">Next: Deploying</a></div>
  <div class="c4"><h2>Help improve these docs</h2><p>Tell us what is missing.</p><a href="/contribute">Learn how to contribute</a></div>`;
const body = `<div class="inner">
  <h1>Configuring the widget</h1>
  <p>The widget reads its settings from a configuration file in the project root. Every setting has a default, so an empty file is valid, and you only write the settings you want to change.</p>
  <h2 id="file">The configuration file</h2>
  <p>Create a file named widget.config.js next to your package.json. It exports one object, whose keys are the settings described below, and it is read once when the server starts.</p>
  <pre><code class="language-js">export default { port: 8080 };</code></pre>
  <h2 id="settings">Settings</h2>
  <p>These are the settings the widget understands. Unknown keys are reported as warnings at start-up, so a typo does not go unnoticed for long.</p>
  <table><tr><th>Name</th><th>Default</th></tr><tr><td>port</td><td>3000</td></tr></table>
  <h2 id="env">Environment variables</h2>
  <p>Each setting can also be given as an environment variable, which wins over the file. This is handy in containers, where the file is baked into the image but the port is not.</p>
  <div class="highlight-shell"><div class="highlight"><pre>WIDGET_PORT=9090 npx widget serve</pre></div></div>
  <h2>See also</h2><ul><li><a href="/guide/deploy">Deploying to production</a></li><li>Related tools<ul>
  <li><a href="https://tools.example.org/a">Cache inspector</a></li><li><a href="https://tools.example.org/b">Config linter</a></li>
  <li><a href="https://tools.example.org/c">Port scanner</a></li><li><a href="https://tools.example.org/d">Env loader</a></li>
  <li><a href="https://tools.example.org/e">Log viewer</a></li></ul></li></ul>
</div>`;
const page = `<html><head><title>Configuring the widget</title></head><body>
  <header><a href="/">Example</a></header>
  <main class="layout">${versions}${sidebar}<div class="col-b">${body}${widgets}</div>${toc}</main>
  <footer><p>© Example Inc.</p></footer></body></html>`;

describe('documentation pages', () => {
  const out = processHtml(page, { url: URL, formats: ['markdown'] });

  it('keep headings, prose, tables and code blocks with their language', () => {
    expect(out.metadata.pageType).toBe('documentation');
    expect(out.markdown).toContain('# Configuring the widget');
    expect(out.markdown).toContain('## Settings');
    expect(out.markdown).toContain('| port | 3000 |');
    expect(out.markdown).toContain('```js\nexport default { port: 8080 };\n```');
    // Pygments wraps twice: the language is on the grandparent
    expect(out.markdown).toContain('```shell\nWIDGET_PORT=9090 npx widget serve\n```');
    // a tree of links among the paragraphs is a section of the text
    expect(out.markdown).toContain('[Config linter](https://tools.example.org/b)');
  });

  it('drop the section tree, the table of contents and the version switcher', () => {
    expect(out.markdown).not.toContain('Command line tool');
    expect(out.markdown).not.toContain('Authentication and sessions');
    expect(out.markdown).not.toContain('On this page');
    expect(out.markdown).not.toContain('#env');
    expect(out.markdown).not.toContain('pt-br');
  });

  it('drop prev/next links and the feedback and edit widgets', () => {
    expect(out.markdown).not.toContain('Was this page helpful');
    expect(out.markdown).not.toContain('Edit this page');
    expect(out.markdown).not.toContain('Previous: Installation');
    expect(out.markdown).not.toContain('Help improve these docs');
    expect(out.markdown).not.toContain('Learn how to contribute');
  });
});
