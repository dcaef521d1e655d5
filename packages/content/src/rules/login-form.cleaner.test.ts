import { processHtml } from '../index';

const text = (html: string): string =>
  processHtml(html, { url: 'https://shop.test/products/oak-stool', formats: ['text'] }).text;
const about = [
  'A three-legged stool turned from solid white oak and finished with hard wax oil.',
  'The seat is hand carved to a gentle dish and stands forty five centimetres tall.',
  'Each stool is made to order in our workshop and ships within three weeks.',
]
  .map((s) => `<p>${s} ${s}</p>`)
  .join('');

describe('login forms', () => {
  it('drops a password box inside the content, with its error and button', () => {
    const lock =
      '<div class="lock"><div class="err">Invalid password</div><input type="password"><a href="#">Enter</a></div>';
    const out = text(`<html><body><main><h1>Oak stool</h1>${about}${lock}</main></body></html>`);
    expect(out).toContain('three-legged stool');
    expect(out).not.toContain('Invalid password');
  });

  it('drops a whole sign-in form and keeps the page', () => {
    const form =
      '<form action="/login"><h3>Members sign in</h3><p>Email</p><input type="email"><p>Password</p><input type="password"><p>Forgot your password? Reset it here.</p><button>Sign in</button></form>';
    const out = text(`<html><body><main><h1>Oak stool</h1>${about}${form}</main></body></html>`);
    expect(out).toContain('ships within three weeks');
    expect(out).not.toContain('Forgot your password');
    expect(out).not.toContain('Members sign in');
  });

  it('keeps a large block that holds a password field beside the content', () => {
    const mixed = `<div>${about}<div><input type="password"></div></div>`;
    const out = text(`<html><body><main><h1>Oak stool</h1>${mixed}</main></body></html>`);
    expect(out).toContain('hand carved to a gentle dish');
  });
});
