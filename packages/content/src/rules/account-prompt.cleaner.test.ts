import { processHtml } from '../index';

// A shop's product page and a thread carry the site's account prompts among their own text; a
// how-to that tells the reader to sign in to their own console keeps its steps.
const text = (body: string, url: string): string =>
  processHtml(`<html><head><title>Page</title></head><body><main>${body}</main></body></html>`, {
    url,
    formats: ['text'],
  }).text ?? '';

const prose = (topic: string): string =>
  `<p>The ${topic} is built from recycled steel and finished by hand in our workshop, then tested for a week before it ships to you.</p>`;

describe('account prompts', () => {
  it('go from a product page and a thread, a line of their own each', () => {
    const shop = text(
      `<h1>Camp kettle</h1>${prose('kettle')}${prose('lid')}
       <p><a href="/login">Sign in to add this item to your wishlist, follow it, or mark it as ignored</a></p>
       <div>Please sign in to provide feedback.</div><p>$40.00</p>`,
      'https://shop.example.com/products/camp-kettle',
    );
    expect(shop).toContain('finished by hand');
    expect(shop).not.toMatch(/sign in/i);
    const thread = text(
      `<h1>Kettle whistles too early</h1>${prose('kettle')}<div class="post-actions"><a href="/login">Log in to reply</a></div>
       <p><a href="/login">Sign In</a> or <a href="/register">Register</a> to comment.</p>${prose('handle')}`,
      'https://forum.example.com/t/kettle-whistles/12',
    );
    expect(thread).not.toContain('Log in to reply');
    expect(thread).not.toContain('Register to comment');
    expect(thread).toContain('The handle is built');
  });

  it("stay when they are a step of instructions, part of a sentence or a gate's notice", () => {
    const howTo = text(
      `<h1>Publish your app</h1>${prose('console')}
       <p>Log in to your developer console and click Create application.</p>
       <ol><li>Sign in to the admin panel</li><li>Open Settings</li></ol>
       <p>Members who sign in to the shop see their past orders on the account page.</p>
       <div class="gate">Please sign in to read this report</div><p>Log in to view the full thread.</p>`,
      'https://docs.example.com/guides/publish',
    );
    expect(howTo).toContain('Log in to your developer console');
    expect(howTo).toContain('Sign in to the admin panel');
    expect(howTo).toContain('Members who sign in to the shop');
    // a gate's notice says the page holds more than the reader got
    expect(howTo).toContain('Please sign in to read this report');
    expect(howTo).toContain('Log in to view the full thread.');
  });
});
