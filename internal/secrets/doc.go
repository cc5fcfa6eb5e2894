// Package secrets finds secret-looking literal values (API tokens,
// passwords, bearer credentials, keys in URLs) in server definitions and in
// text, and masks them for display.
//
// mcpsync keeps secrets out of shared files: a server's env, headers, args
// and URL should hold references (${GITHUB_TOKEN}), never the value. This
// package is how mcpsync notices a value that slipped in (doctor, import),
// how it names the reference that should replace it (ScanServer, Extract),
// and how every output that can show a value hides it (Mask, MaskLine,
// Scrubber, MaskServer).
//
// # What counts as a secret
//
// A literal is reported when one of these rules matches, most specific
// first:
//
//   - a provider's token format: GitHub (ghp_, gho_, ghu_, ghs_, ghr_,
//     github_pat_), OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), Slack
//     (xoxa-, xoxb-, xoxp-, xoxr-, xoxs-, xapp-), AWS access key ids (AKIA,
//     ASIA), Google (AIza), GitLab (glpat-), Stripe (sk_live_, rk_live_ and
//     their _test_ forms), npm (npm_), Hugging Face (hf_), Linear (lin_api_),
//     and a few more (see providers); a JWT (eyJ….eyJ….sig);
//   - the credential after Bearer, Basic or Token, in a header or anywhere
//     in an argument;
//   - a URL's user-info password, and the value of a query parameter whose
//     name says token, key, secret, password, auth or signature;
//   - any literal in a field whose name says it is a secret: an env var such
//     as API_KEY or DB_PASSWORD, a header such as X-Api-Key, an argument
//     after --token or written --api-key=… or API_KEY=…; names that only
//     say where a secret is (TOKEN_FILE, KEY_PATH, bearer_token_env_var,
//     MAX_TOKENS) do not count;
//   - a high-entropy run: at least 20 characters (32 for hexadecimal), with
//     letters and digits, whose Shannon entropy is that of random text.
//
// Never a secret: a reference in any client's spelling (${VAR},
// ${VAR:-default}, ${env:VAR}, {env:VAR}, $VAR, ${input:id}, ${{
// secrets.X }}), an obvious placeholder (YOUR_API_KEY, <token>, xxxx,
// sk-your-key-here, "undefined"), paths, host names, package names and
// versions, and UUIDs. UUIDs are mostly ids (a workspace, a project); one
// in a field named like a secret is still reported by the name rule.
package secrets
