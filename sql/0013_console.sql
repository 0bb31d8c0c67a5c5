-- Console sign-in: sign-in sessions (a browser's cookie), one-time sign-in links from the CLI, and
-- the short-lived state of an OpenID Connect sign-in between the redirect and the callback.
-- Not to be confused with `sessions` (0003): those are connections to resources (/v1/sessions).
-- Only SHA-256 hashes of secrets are kept. Conventions as in 0001.

CREATE TABLE web_sessions (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,                  -- the public id (GET /v1/web-sessions)
  secret_hash   BLOB NOT NULL UNIQUE,                  -- SHA-256 of the cookie's value
  user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role_at_start TEXT NOT NULL,                         -- a session started as ADMIN ends when the user is demoted
  method        TEXT NOT NULL CHECK (method IN ('LOGIN_LINK', 'OIDC')),
  ip_address    TEXT,
  user_agent    TEXT,
  created_at    TEXT NOT NULL,
  last_seen_at  TEXT NOT NULL,                         -- written at most once a minute; the idle limit counts from it
  expires_at    TEXT NOT NULL,                         -- the absolute limit
  ended_at      TEXT,
  end_reason    TEXT                                   -- SIGNED_OUT, REVOKED, IDLE, EXPIRED, OFFBOARDED, DEMOTED
) STRICT;

CREATE INDEX web_sessions_by_user ON web_sessions (user_id, seq);

CREATE TABLE login_links (
  secret_hash BLOB PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  used_at     TEXT                                     -- single use: set when redeemed, never cleared
) STRICT;

-- Between GET /console/oidc/start and the provider's redirect back: the PKCE verifier and nonce,
-- found by the hash of `state`. A row is deleted when used; rows older than the link lifetime are ignored.
CREATE TABLE oidc_logins (
  state_hash    BLOB PRIMARY KEY,
  code_verifier TEXT NOT NULL,
  nonce         TEXT NOT NULL,
  return_to     TEXT NOT NULL,
  created_at    TEXT NOT NULL
) STRICT;

-- Access reviews that act: a decision per snapshot row (KEEP, REVOKE, LATER), and what happens to the
-- rows nobody answered by the review's deadline (KEEP unless REVOKE was chosen explicitly).
CREATE TABLE uar_decisions (
  snapshot_row_seq INTEGER PRIMARY KEY REFERENCES uar_snapshot_rows (seq) ON DELETE CASCADE,
  uar_id           TEXT NOT NULL REFERENCES uars (id) ON DELETE CASCADE,
  decision         TEXT NOT NULL CHECK (decision IN ('KEEP', 'REVOKE', 'LATER')),
  reviewer_user_id TEXT NOT NULL,
  decided_at       TEXT NOT NULL
) STRICT;

CREATE TABLE uar_policies (
  uar_id              TEXT PRIMARY KEY REFERENCES uars (id) ON DELETE CASCADE,
  unanswered_decision TEXT NOT NULL DEFAULT 'KEEP' CHECK (unanswered_decision IN ('KEEP', 'REVOKE')),
  closed_at           TEXT                   -- set when the deadline's policy was applied
) STRICT;
