// Configuration templates, and which resources and groups are linked to them: the only SQL for either.
// A template's visibility is stored by the visibility store (its kind 'configuration_template').
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';
import type { RequestConfigurationInput } from '../request-settings/schemas.ts';
import type { TicketPropagation } from '../resources/mappers.ts';

interface TemplateRow {
  seq: number;
  id: string;
  name: string;
  admin_owner_id: string;
  require_mfa_to_approve: number;
  require_mfa_to_connect: number;
  request_configurations: string;
  ticket_propagation: string | null;
  custom_request_notification: string | null;
  linked_audit_message_channel_ids: string;
  member_oncall_schedule_ids: string;
  break_glass_user_ids: string;
  break_glass_group_ids: string;
  break_glass_max_minutes: number;
  created_at: string;
  updated_at: string;
}

/** Everything stored about a template but its id, times and visibility. */
export interface TemplateFields {
  name: string;
  admin_owner_id: string;
  require_mfa_to_approve: boolean;
  require_mfa_to_connect: boolean;
  /** As given (validated); the default configuration (priority 0) may be absent, meaning the defaults. */
  request_configurations: RequestConfigurationInput[];
  ticket_propagation: TicketPropagation | null;
  custom_request_notification: string | null;
  linked_audit_message_channel_ids: string[];
  member_oncall_schedule_ids: string[];
  break_glass_user_ids: string[];
  break_glass_group_ids: string[];
  break_glass_max_minutes: number;
}

export interface StoredTemplate extends TemplateFields {
  id: string;
  seq: number;
}

function fromRow(row: TemplateRow): StoredTemplate {
  return {
    id: row.id,
    seq: row.seq,
    name: row.name,
    admin_owner_id: row.admin_owner_id,
    require_mfa_to_approve: row.require_mfa_to_approve === 1,
    require_mfa_to_connect: row.require_mfa_to_connect === 1,
    request_configurations: JSON.parse(row.request_configurations) as RequestConfigurationInput[],
    ticket_propagation: row.ticket_propagation === null ? null : (JSON.parse(row.ticket_propagation) as TicketPropagation),
    custom_request_notification: row.custom_request_notification,
    linked_audit_message_channel_ids: JSON.parse(row.linked_audit_message_channel_ids) as string[],
    member_oncall_schedule_ids: JSON.parse(row.member_oncall_schedule_ids) as string[],
    break_glass_user_ids: JSON.parse(row.break_glass_user_ids) as string[],
    break_glass_group_ids: JSON.parse(row.break_glass_group_ids) as string[],
    break_glass_max_minutes: row.break_glass_max_minutes,
  };
}

function columns(fields: TemplateFields) {
  return {
    name: fields.name,
    admin_owner_id: fields.admin_owner_id,
    require_mfa_to_approve: fields.require_mfa_to_approve ? 1 : 0,
    require_mfa_to_connect: fields.require_mfa_to_connect ? 1 : 0,
    request_configurations: JSON.stringify(fields.request_configurations),
    ticket_propagation: fields.ticket_propagation === null ? null : JSON.stringify(fields.ticket_propagation),
    custom_request_notification: fields.custom_request_notification,
    linked_audit_message_channel_ids: JSON.stringify(fields.linked_audit_message_channel_ids),
    member_oncall_schedule_ids: JSON.stringify(fields.member_oncall_schedule_ids),
    break_glass_user_ids: JSON.stringify(fields.break_glass_user_ids),
    break_glass_group_ids: JSON.stringify(fields.break_glass_group_ids),
    break_glass_max_minutes: fields.break_glass_max_minutes,
  };
}
type Columns = ReturnType<typeof columns>;
const COLUMN_NAMES = Object.keys(columns({
  name: '', admin_owner_id: '', require_mfa_to_approve: false, require_mfa_to_connect: false, request_configurations: [],
  ticket_propagation: null, custom_request_notification: null, linked_audit_message_channel_ids: [], member_oncall_schedule_ids: [], break_glass_user_ids: [],
  break_glass_group_ids: [], break_glass_max_minutes: 60,
}));

/** The two kinds of item a template manages; the table comes from here, never from input. */
const LINKED = { resource: 'resources', group: 'groups' } as const;
export type LinkedKind = keyof typeof LINKED;

export function createConfigurationTemplateStore(db: Db) {
  const insert = db.prepare<Columns & { id: string; at: string; visibility: string }>(
    `INSERT INTO configuration_templates (id, ${COLUMN_NAMES.join(', ')}, visibility, created_at, updated_at)
     VALUES (@id, ${COLUMN_NAMES.map((c) => `@${c}`).join(', ')}, @visibility, @at, @at)`,
  );
  const update = db.prepare<Columns & { id: string; at: string }>(
    `UPDATE configuration_templates SET ${COLUMN_NAMES.map((c) => `${c} = @${c}`).join(', ')}, updated_at = @at WHERE id = @id`,
  );
  const remove = db.prepare<[string]>('DELETE FROM configuration_templates WHERE id = ?');
  const byId = db.prepare<[string], TemplateRow>('SELECT * FROM configuration_templates WHERE id = ?');
  const page = db.prepare<{ after: number; limit: number }, TemplateRow>(
    'SELECT * FROM configuration_templates WHERE seq > @after ORDER BY seq LIMIT @limit',
  );
  // Ids are UUIDs, so finding one in the JSON text cannot match anything but that id.
  const naming = db.prepare<[string, string, string, string, string], { n: number }>(
    `SELECT count(*) AS n FROM configuration_templates
     WHERE instr(request_configurations, ?) > 0 OR instr(linked_audit_message_channel_ids, ?) > 0
        OR instr(member_oncall_schedule_ids, ?) > 0 OR instr(break_glass_user_ids, ?) > 0 OR instr(break_glass_group_ids, ?) > 0`,
  );
  const linked = {
    resource: db.prepare<[string], { id: string }>(`SELECT id FROM ${LINKED.resource} WHERE configuration_template_id = ? ORDER BY seq`),
    group: db.prepare<[string], { id: string }>(`SELECT id FROM ${LINKED.group} WHERE configuration_template_id = ? ORDER BY seq`),
  };

  return {
    /** Inserts a template with the given visibility type (its groups are the visibility store's) and returns its id. */
    create(fields: TemplateFields, visibility: string, at: Date): string {
      const id = newId();
      insert.run({ id, ...columns(fields), visibility, at: at.toISOString() });
      return id;
    },
    update(id: string, fields: TemplateFields, at: Date): void {
      update.run({ id, ...columns(fields), at: at.toISOString() });
    },
    delete(id: string): void {
      remove.run(id);
    },
    get(id: string): StoredTemplate | undefined {
      const row = byId.get(id);
      return row && fromRow(row);
    },
    exists(id: string): boolean {
      return byId.get(id) !== undefined;
    },
    /** One keyset page of templates, oldest first. */
    list(after: number | null, limit: number): StoredTemplate[] {
      return page.all({ after: after ?? 0, limit }).map(fromRow);
    },
    /** The ids of the resources or groups linked to the template, oldest first. */
    linked(kind: LinkedKind, templateId: string): string[] {
      return linked[kind].all(templateId).map((row) => row.id);
    },
    /** How many templates name `id` (an owner, user, group, message channel or on-call schedule) in their settings. */
    countNaming(id: string): number {
      return naming.get(id, id, id, id, id)!.n;
    },
  };
}

