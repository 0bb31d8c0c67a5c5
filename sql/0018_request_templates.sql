-- Request templates (what a requester is asked beside the reason: custom fields), the duration a
-- reviewer shortened a request to on approval, and managers' reports. Conventions as in 0001.

CREATE TABLE request_templates (
  seq           INTEGER PRIMARY KEY,
  id            TEXT NOT NULL UNIQUE,
  name          TEXT NOT NULL,
  custom_fields TEXT NOT NULL DEFAULT '[]',  -- JSON array of RequestTemplateCustomField, in the order shown
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
) STRICT;

-- What the requester asked for, kept when a reviewer approved for less (duration_minutes is then the
-- shortened duration the grant uses); NULL while nobody shortened it.
ALTER TABLE requests ADD COLUMN requested_duration_minutes INTEGER;

-- A manager's direct reports (GET /v1/users?manager_id=; a manager reads their reports' access).
CREATE INDEX users_by_manager ON users (manager_id, seq) WHERE manager_id IS NOT NULL;
