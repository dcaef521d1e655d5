/** safe-regex 2.1.1 ships no types: true when the regex's star height is at most `limit` (1). */
declare module 'safe-regex' {
  export default function safeRegex(re: string | RegExp, opts?: { limit?: number }): boolean;
}
