-- Visibility of resources, groups and bundles, and configuration templates. Conventions as in 0001.
--
-- Visibility: GLOBAL (every user sees the item) or LIMITED (admins, users who hold the item, and
-- effective members of one of its visibility groups; docs/visibility.md). Existing items stay GLOBAL.
ALTER TABLE resources ADD COLUMN visibility TEXT NOT NULL DEFAULT 'GLOBAL' CHECK (visibility IN ('GLOBAL', 'LIMITED'));
ALTER TABLE groups ADD COLUMN visibility TEXT NOT NULL DEFAULT 'GLOBAL' CHECK (visibility IN ('GLOBAL', 'LIMITED'));
ALTER TABLE bundles ADD COLUMN visibility TEXT NOT NULL DEFAULT 'GLOBAL' CHECK (visibility IN ('GLOBAL', 'LIMITED'));

-- A configuration template: the settings it gives every resource and group linked to it
-- (resources.configuration_template_id / groups.configuration_template_id).
CREATE TABLE configuration_templates (
  seq                              INTEGER PRIMARY KEY,
  id                               TEXT NOT NULL UNIQUE,
  name                             TEXT NOT NULL,
  admin_owner_id                   TEXT NOT NULL REFERENCES owners (id) ON DELETE RESTRICT,
  visibility                       TEXT NOT NULL CHECK (visibility IN ('GLOBAL', 'LIMITED')),
  require_mfa_to_approve           INTEGER NOT NULL CHECK (require_mfa_to_approve IN (0, 1)),
  require_mfa_to_connect           INTEGER NOT NULL CHECK (require_mfa_to_connect IN (0, 1)),
  request_configurations           TEXT NOT NULL,   -- JSON array of RequestConfiguration, the default (priority 0) always present
  ticket_propagation               TEXT,            -- JSON TicketPropagationConfiguration
  custom_request_notification      TEXT,
  linked_audit_message_channel_ids TEXT NOT NULL DEFAULT '[]',  -- JSON array of message channel ids, in order
  member_oncall_schedule_ids       TEXT NOT NULL DEFAULT '[]',  -- JSON array of on-call schedule ids, in order
  break_glass_user_ids             TEXT NOT NULL DEFAULT '[]',  -- JSON array of user ids, kept (nothing uses them)
  created_at                       TEXT NOT NULL,
  updated_at                       TEXT NOT NULL
) STRICT;
CREATE INDEX configuration_templates_by_owner ON configuration_templates (admin_owner_id);

-- Which items a template manages: deleting a template is refused while any is linked (the service
-- checks, so the answer names the field); the index finds them.
CREATE INDEX resources_by_configuration_template ON resources (configuration_template_id) WHERE configuration_template_id IS NOT NULL;
CREATE INDEX groups_by_configuration_template ON groups (configuration_template_id) WHERE configuration_template_id IS NOT NULL;

-- The visibility groups of each kind of item, in the order set. A deleted group leaves every list it
-- was on (a LIMITED item whose last group goes is then seen by admins and holders only: it fails closed).
CREATE TABLE resource_visibility_groups (
  resource_id TEXT NOT NULL REFERENCES resources (id) ON DELETE CASCADE,
  group_id    TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,
  PRIMARY KEY (resource_id, group_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX resource_visibility_groups_by_group ON resource_visibility_groups (group_id);

CREATE TABLE group_visibility_groups (
  group_id            TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  visibility_group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  position            INTEGER NOT NULL,
  PRIMARY KEY (group_id, visibility_group_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX group_visibility_groups_by_group ON group_visibility_groups (visibility_group_id);

CREATE TABLE bundle_visibility_groups (
  bundle_id TEXT NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
  group_id  TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  position  INTEGER NOT NULL,
  PRIMARY KEY (bundle_id, group_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX bundle_visibility_groups_by_group ON bundle_visibility_groups (group_id);

CREATE TABLE configuration_template_visibility_groups (
  configuration_template_id TEXT NOT NULL REFERENCES configuration_templates (id) ON DELETE CASCADE,
  group_id                  TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  position                  INTEGER NOT NULL,
  PRIMARY KEY (configuration_template_id, group_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX configuration_template_visibility_groups_by_group ON configuration_template_visibility_groups (group_id);
