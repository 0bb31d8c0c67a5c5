// Non-human identities' direct access to resources (resource_non_human_identities): the only SQL for it.
// An identity is itself a resource (see NON_HUMAN_IDENTITY_TYPES); an expired link is dead and never read.
import type { Db } from '../../db/open.ts';

/**
 * The resource types that are machine identities rather than things people use: an AWS IAM role,
 * an Azure user-assigned managed identity, a Databricks service principal, a GCP service account
 * and an OpenAI platform service account. Spelled as the reference's ResourceTypeEnum spells them.
 */
export const NON_HUMAN_IDENTITY_TYPES = [
  'AWS_IAM_ROLE',
  'AZURE_USER_ASSIGNED_MANAGED_Identity',
  'DATABRICKS_ACCOUNT_SERVICE_PRINCIPAL',
  'GCP_SERVICE_ACCOUNT',
  'OPENAI_PLATFORM_SERVICE_ACCOUNT',
] as const;

export const isNonHumanIdentityType = (type: string): boolean => (NON_HUMAN_IDENTITY_TYPES as readonly string[]).includes(type);

/** A link with the names the audit trail shows beside it. */
export interface ResourceNhiRow {
  seq: number;
  resource_id: string;
  non_human_identity_id: string;
  access_level_remote_id: string;
  access_level_name: string;
  expiration_date: string | null;
  resource_name: string;
  non_human_identity_name: string;
}

/** Which link: the resource, the identity and the access level's remote id ('' for the default level). */
export interface NhiLinkKey {
  resourceId: string;
  nhiId: string;
  level: string;
}

export interface NhiLinkGrant extends NhiLinkKey {
  levelName: string;
  expiresAt: string | null;
}

export function createNonHumanIdentityStore(db: Db) {
  const LIVE = '(l.expiration_date IS NULL OR l.expiration_date > @now)';
  const SELECT = `SELECT l.seq, l.resource_id, l.non_human_identity_id, l.access_level_remote_id, l.access_level_name,
                         l.expiration_date, r.name AS resource_name, n.name AS non_human_identity_name
                  FROM resource_non_human_identities l
                  JOIN resources r ON r.id = l.resource_id
                  JOIN resources n ON n.id = l.non_human_identity_id`;
  const liveOne = db.prepare<NhiLinkKey & { now: string }, ResourceNhiRow>(
    `${SELECT} WHERE l.resource_id = @resourceId AND l.non_human_identity_id = @nhiId AND l.access_level_remote_id = @level AND ${LIVE}`,
  );
  const livePage = db.prepare<{ resourceId: string; now: string; after: number; limit: number }, ResourceNhiRow>(
    `${SELECT} WHERE l.resource_id = @resourceId AND ${LIVE} AND l.seq > @after ORDER BY l.seq LIMIT @limit`,
  );
  // A dead (expired) link with the same key is replaced by the new one.
  const upsert = db.prepare<NhiLinkGrant & { at: string }>(
    `INSERT INTO resource_non_human_identities
       (resource_id, non_human_identity_id, access_level_remote_id, access_level_name, expiration_date, created_at)
     VALUES (@resourceId, @nhiId, @level, @levelName, @expiresAt, @at)
     ON CONFLICT (resource_id, non_human_identity_id, access_level_remote_id) DO UPDATE SET
       access_level_name = excluded.access_level_name, expiration_date = excluded.expiration_date, created_at = excluded.created_at`,
  );
  const remove = db.prepare<NhiLinkKey>(
    `DELETE FROM resource_non_human_identities
     WHERE resource_id = @resourceId AND non_human_identity_id = @nhiId AND access_level_remote_id = @level`,
  );

  return {
    /** The link if it is unexpired at `now`, else undefined. */
    held(key: NhiLinkKey, now: Date): ResourceNhiRow | undefined {
      return liveOne.get({ ...key, now: now.toISOString() });
    },
    /** One page of the resource's unexpired links, in the order they were made. */
    list(resourceId: string, now: Date, after: number | null, limit: number): ResourceNhiRow[] {
      return livePage.all({ resourceId, now: now.toISOString(), after: after ?? 0, limit });
    },
    /** Writes the link (replacing a dead one with the same key); the caller has checked none is held. */
    attach(link: NhiLinkGrant, at: Date): void {
      upsert.run({ ...link, at: at.toISOString() });
    },
    /** Deletes the link's row, held or dead. */
    detach(key: NhiLinkKey): void {
      remove.run(key);
    },
  };
}

