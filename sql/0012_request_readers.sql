-- Members read only the requests they take part in (docs/requests.md); one of the ways is having
-- decided in a reviewer's place, read by who acted. Conventions as in 0001.

CREATE INDEX request_reviewers_by_actor ON request_reviewers (acted_by_user_id, request_id) WHERE acted_by_user_id IS NOT NULL;
