// Request templates: the only SQL for them, and the count of items and configuration templates naming one.
import type { Db } from '../../db/open.ts';
import { newId } from '../../lib/ids.ts';

/** One field as stored and shown (the vendor's RequestTemplateCustomField). */
export interface CustomField {
  name: string;
  description?: string;
  type: 'SHORT_TEXT' | 'LONG_TEXT' | 'BOOLEAN' | 'MULTI_CHOICE';
  required: boolean;
  metadata?: { multi_choice_data: { options: string[] } };
}

export interface RequestTemplate {
  seq: number;
  id: string;
  name: string;
  custom_fields: CustomField[];
}

interface Row {
  seq: number;
  id: string;
  name: string;
  custom_fields: string;
}

const fromRow = (row: Row): RequestTemplate => ({ seq: row.seq, id: row.id, name: row.name, custom_fields: JSON.parse(row.custom_fields) as CustomField[] });

export function createRequestTemplateStore(db: Db) {
  const insert = db.prepare<{ id: string; name: string; custom_fields: string; at: string }>(
    'INSERT INTO request_templates (id, name, custom_fields, created_at, updated_at) VALUES (@id, @name, @custom_fields, @at, @at)',
  );
  const update = db.prepare<{ id: string; name: string; custom_fields: string; at: string }>(
    'UPDATE request_templates SET name = @name, custom_fields = @custom_fields, updated_at = @at WHERE id = @id',
  );
  const remove = db.prepare<[string]>('DELETE FROM request_templates WHERE id = ?');
  const byId = db.prepare<[string], Row>('SELECT seq, id, name, custom_fields FROM request_templates WHERE id = ?');
  const page = db.prepare<{ after: number; limit: number }, Row>(
    'SELECT seq, id, name, custom_fields FROM request_templates WHERE seq > @after ORDER BY seq LIMIT @limit',
  );
  // Ids are UUIDs, so finding one in a configurations' JSON text cannot match anything but that id.
  const using = db.prepare<{ id: string }, { n: number }>(
    `SELECT (SELECT count(*) FROM resources WHERE request_template_id = @id OR instr(request_configurations, @id) > 0)
          + (SELECT count(*) FROM groups WHERE request_template_id = @id OR instr(request_configurations, @id) > 0)
          + (SELECT count(*) FROM configuration_templates WHERE instr(request_configurations, @id) > 0) AS n`,
  );

  return {
    create(name: string, fields: CustomField[], at: Date): string {
      const id = newId();
      insert.run({ id, name, custom_fields: JSON.stringify(fields), at: at.toISOString() });
      return id;
    },
    update(id: string, name: string, fields: CustomField[], at: Date): void {
      update.run({ id, name, custom_fields: JSON.stringify(fields), at: at.toISOString() });
    },
    delete(id: string): void {
      remove.run(id);
    },
    get(id: string): RequestTemplate | undefined {
      const row = byId.get(id);
      return row && fromRow(row);
    },
    /** One keyset page, oldest first. */
    list(after: number | null, limit: number): RequestTemplate[] {
      return page.all({ after: after ?? 0, limit }).map(fromRow);
    },
    /** How many resources, groups and configuration templates name the template in their request settings. */
    countUsing(id: string): number {
      return using.get({ id })!.n;
    },
  };
}
