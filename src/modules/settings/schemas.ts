// The settings area's request bodies (Valibot).
import * as v from 'valibot';

/** PATCH /v1/settings: settings by variable name, each a value as its variable takes it, or null to clear it. */
export const UpdateSettingsBody = v.object({
  settings: v.pipe(
    v.record(
      v.pipe(v.string(), v.maxLength(100, 'must be a setting\'s name')),
      v.nullable(v.string('must be text (the value as its environment variable takes it), or null to clear it')),
      'must be an object of settings by their variable names',
    ),
    v.check((settings) => Object.keys(settings).length <= 100, 'must name at most 100 settings'),
  ),
});

/** POST /v1/settings/slack/test: where to post (a channel id or #name); without one, to the caller directly. */
export const SlackTestBody = v.object({
  channel: v.optional(v.pipe(v.string('must be a Slack channel id or name'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'))),
});
