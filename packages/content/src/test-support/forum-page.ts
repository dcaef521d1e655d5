/** Forum thread pages for the forum-profile tests, written for them (no real site's markup). */

import { processHtml } from '../index';
import { prose } from './article-page';

export const THREAD_URL = 'https://example.org/forum/threads/winter-tyres.1234/';

export interface PostSpec {
  author: string;
  date: string;
  body: string;
}

/** One post: a user panel with member statistics, the dated body, an action bar and a vote count. */
export const post = ({ author, date, body }: PostSpec, i: number): string =>
  `<article class="message" id="post-${i}" itemprop="comment" itemscope itemtype="https://schema.org/Comment">
    <div class="message-user" itemprop="author" itemscope itemtype="https://schema.org/Person">
      <a href="/members/${author}" class="avatar">${author[0]}</a>
      <h4><a href="/members/${author}" class="username" itemprop="name">${author}</a></h4>
      <div class="user-title">Well-known member</div>
      <dl class="pairs"><dt>Joined</dt><dd>Mar 3, 2016</dd></dl>
      <dl class="pairs"><dt>Messages</dt><dd>1,204</dd></dl>
      <div>Location: Lyon</div>
    </div>
    <div class="message-main">
      <div class="message-attribution"><time datetime="2024-01-0${i + 1}">${date}</time> <a href="#post-${i}">#${i + 1}</a></div>
      <div class="vote-count">${12 + i}</div>
      ${i === 0 ? '<div class="badge">Author</div>' : ''}
      <div class="message-body" itemprop="text">${i > 0 ? `<blockquote><div>Someone said:</div><div>Earlier words</div><div class="expander">Click to expand...</div></blockquote>` : ''}<p>${body}</p></div>
      <span itemprop="commentCount">${7 + i}</span>
      <div class="signature">Drive safe, ${author}</div>
      <div class="message-actions"><a href="#r">Reply</a> <a href="#q">Quote</a> <a href="#rep">Report</a> <span>Like x 3</span> <a href="#rq">Reply With Quote</a></div>
    </div>
  </article>`;

export const POSTS: PostSpec[] = [
  { author: 'alpine_anna', date: 'Jan 1, 2024', body: prose(3, 'studded tyres') },
  { author: 'brake_bob', date: 'Jan 2, 2024', body: prose(2, 'all-season tyres') },
  { author: 'chain_chris', date: 'Jan 3, 2024', body: prose(2, 'snow chains') },
  { author: 'drift_dana', date: 'Jan 4, 2024', body: prose(2, 'tyre pressure') },
];

/** A thread page: title, posts (`inner` wraps them), tags; declared a forum posting. */
export const threadPage = (posts: string, after = ''): string =>
  `<html><head><title>Winter tyres: worth it?</title></head><body>
    <header><nav><a href="/">Home</a> <a href="/forum">Forums</a></nav></header>
    <main><div itemscope itemtype="https://schema.org/DiscussionForumPosting">
      <h1 itemprop="headline">Winter tyres: worth it?</h1>
      <div class="post-tags"><a href="/tags/tyres">tyres</a> <a href="/tags/winter">winter</a></div>
      ${posts}${after}
    </div></main>
    <footer>Forum software by someone</footer>
  </body></html>`;

export const threadText = (html: string): string =>
  processHtml(html, { url: THREAD_URL, formats: ['text'] }).text;

export const threadMarkdown = (html: string): string =>
  processHtml(html, { url: THREAD_URL, formats: ['markdown'] }).markdown;
