-- Organization roles: what a user may do beyond reading and asking for access.
-- ADMIN may do everything; MEMBER may read, request access, comment, cancel their own requests and
-- review where they are a current reviewer (src/http/policy.ts has the table of routes).
-- New users are members; the bootstrap admin and any database created before roles existed keeps
-- its first user as the administrator, so an upgrade never locks its operator out.
ALTER TABLE users ADD COLUMN organization_role TEXT NOT NULL DEFAULT 'MEMBER'
  CHECK (organization_role IN ('ADMIN', 'MEMBER'));

UPDATE users SET organization_role = 'ADMIN' WHERE seq = (SELECT min(seq) FROM users);
