// Where Gatehouse's API document knowingly differs from the reference, and why. The conformance test
// (test/openapi/conformance.test.ts) fails on any other difference, and on an entry nothing matches.
// docs/openapi.md shows this list (the same test keeps that copy current).

export interface Deviation {
  /** The operations it covers (`'PUT /v1/groups'`), or '*' for any operation the field appears in. */
  operations: '*' | readonly string[];
  /**
   * Where the difference is, as the test names it: `parameter query.cursor`, `body.remote_info`,
   * `status 204`, `response 200.results[].manager_id`. `*` matches anything.
   */
  where: string;
  /** Optional: which kind of difference (`here, not in the reference`, `type …`); `*` matches anything. */
  what?: string;
  reason: string;
}

const RESOURCE_AND_GROUP_WRITES = ['POST /v1/resources', 'PUT /v1/resources', 'POST /v1/groups', 'PUT /v1/groups'];
const TEMPLATE_WRITES = ['POST /v1/configuration-templates', 'PUT /v1/configuration-templates'];
const TEMPLATE_ANSWERS = ['GET /v1/configuration-templates', ...TEMPLATE_WRITES];
const CONTAINING_GROUP_ANSWERS = [
  'GET /v1/groups/{group_id}/containing-groups',
  'POST /v1/groups/{group_id}/containing-groups',
  'GET /v1/groups/{group_id}/containing-groups/{containing_group_id}',
];
const REQUEST_ANSWERS = [
  'GET /v1/requests', 'GET /v1/requests/relay', 'GET /v1/requests/{id}', 'POST /v1/requests/{id}/approve',
  'POST /v1/requests/{id}/deny', 'POST /v1/requests/{id}/comments',
];
const PAGED_EDGE_LISTS = ['GET /v1/resources/{resource_id}/users', 'GET /v1/resources/users/{user_id}', 'GET /v1/resources/{resource_id}/non-human-identities', 'GET /v1/sessions'];

export const DEVIATIONS: readonly Deviation[] = [
  {
    operations: ['GET /v1/users'],
    where: 'parameter query.manager_id',
    what: 'here, not in the reference',
    reason: 'Extension: lists a manager\'s direct reports (the console\'s person pages for managers; docs/users-and-tokens.md).',
  },
  {
    operations: ['GET /v1/requests'],
    where: 'parameter query.awaiting_my_review',
    what: 'here, not in the reference',
    reason: 'Extension: only the PENDING requests waiting for the caller\'s decision now (current stages, delegations followed), which the console\'s Home lists beside the exact counts of `GET /v1/requests/counts` (docs/requests.md).',
  },
  {
    operations: ['GET /v1/resources', 'GET /v1/groups'],
    where: 'parameter query.owner_filter',
    what: 'here, not in the reference',
    reason: 'Extension: keeps what one owner administers (the console\'s Teams page; docs/owners.md).',
  },
  {
    operations: ['GET /v1/users'],
    where: 'parameter query.contains',
    what: 'here, not in the reference',
    reason: 'Extension: keeps people whose email or full name contains the text, in any case (the console\'s People search; docs/users-and-tokens.md).',
  },
  {
    operations: ['GET /v1/resources'],
    where: 'parameter query.app_id',
    what: 'here, not in the reference',
    reason: 'Extension: lists one app\'s resources, paged and visibility-checked like the rest (docs/resources.md); ignoring the filter would hand back every app\'s resources.',
  },
  {
    operations: ['GET /v1/groups'],
    where: 'parameter query.app_id',
    what: 'here, not in the reference',
    reason: 'Extension: lists one app\'s groups, as GET /v1/resources does (the console\'s app page; docs/resources.md).',
  },
  {
    operations: REQUEST_ANSWERS,
    where: '*requested_duration_minutes',
    what: 'here, not in the reference',
    reason: 'Extension: when a reviewer approved for less than was asked, the request shows what the requester asked for beside the shortened duration_minutes (docs/requests.md).',
  },
  {
    operations: ['POST /v1/requests/{id}/approve'],
    where: 'body.duration_minutes',
    what: 'here, not in the reference',
    reason: 'Extension: a reviewer may grant for less than the request asks, never more (docs/requests.md).',
  },
  {
    operations: ['GET /v1/configuration-templates'],
    where: 'parameter query.*',
    what: 'here, not in the reference',
    reason: 'The list of configuration templates pages like every other list (`cursor`, `page_size` in; `next`, `previous` out), so no answer is ever silently cut short.',
  },
  {
    operations: ['GET /v1/configuration-templates'],
    where: 'response 200.next',
    what: 'here, not in the reference',
    reason: 'The list of configuration templates pages like every other list (`cursor`, `page_size` in; `next`, `previous` out), so no answer is ever silently cut short.',
  },
  {
    operations: ['GET /v1/configuration-templates'],
    where: 'response 200.previous',
    what: 'here, not in the reference',
    reason: 'The list of configuration templates pages like every other list (`cursor`, `page_size` in; `next`, `previous` out), so no answer is ever silently cut short.',
  },
  {
    operations: TEMPLATE_ANSWERS,
    where: '*request_configurations',
    what: 'here, not in the reference',
    reason: 'Extension: a ConfigurationTemplate answers the request configurations it gives its items (in the order written), which create and update take; the reference takes them but never shows them.',
  },
  {
    operations: '*',
    where: '*request_configuration*.organization_id',
    reason: 'The reference requires `organization_id` in a request configuration but does not describe it. Gatehouse describes it: always the nil UUID, since one Gatehouse serves one organization.',
  },
  {
    operations: '*',
    where: '*reviewer_stages[].stage',
    reason: 'The reference requires `stage` in a reviewer stage but does not describe it. Gatehouse describes it as the stage\'s position (an integer from 1).',
  },
  {
    operations: ['GET', 'PUT'].flatMap((method) => ['resources/{resource_id}', 'groups/{group_id}'].map((item) => `${method} /v1/${item}/reviewer-stages`)),
    where: '*[].stage',
    reason: 'The reference requires `stage` in a reviewer stage but does not describe it. Gatehouse describes it as the stage\'s position (an integer from 1); a stage sent without it takes its position in the list, as clients built from older versions of the reference omit it.',
  },
  {
    operations: ['PUT /v1/resources', 'PUT /v1/groups', ...TEMPLATE_WRITES],
    where: '*request_configuration_list',
    reason: 'The deprecated `request_configuration_list` is the object `{ request_configurations }` in the reference\'s bodies but the bare list in its Resource and Group answers; a client sending an item back whole sends the list, so Gatehouse reads either (anyOf). Beside `request_configurations`, it must be the same list.',
  },
  {
    operations: '*',
    where: '*.access_levels',
    what: 'here, not in the reference',
    reason: 'Extension: a resource lists the access levels it offers (`access_levels`), and create and update may set them. The reference has no way to declare them.',
  },
  {
    operations: ['GET /v1/tokens'],
    where: 'response 200.results[].scope',
    what: 'here, not in the reference',
    reason: 'Extension: a token says where it works (`API`, or `SCIM` for an identity provider\'s on /scim/v2 only), so a list of tokens does not call a SCIM token "full access" (docs/scim.md).',
  },
  {
    operations: '*',
    where: '*.manager_id',
    what: 'here, not in the reference',
    reason: 'Extension: a user carries `manager_id` when a manager is recorded (POST /v1/users takes it).',
  },
  {
    operations: '*',
    where: '*.organization_role',
    what: 'here, not in the reference',
    reason: 'Extension: a user carries its organization role, `ADMIN` or `MEMBER`, which decides what its tokens may write (docs/roles.md). POST /v1/users and PUT /v1/users/{user_id} take it.',
  },
  {
    operations: ['GET /v1/tag', 'GET /v1/tag/{tag_id}', 'GET /v1/tags', 'POST /v1/tag', 'GET /v1/users/{user_id}/tags', 'GET /v1/groups/{group_id}/tags', 'GET /v1/resources/{resource_id}/tags'],
    where: '*admin_owner_id',
    what: 'here, not in the reference',
    reason: 'Extension: a tag may have an administering owner. POST /v1/tag takes `admin_owner_id` in the body as well as in the reference\'s deprecated query parameter, and every Tag returns it when set.',
  },
  {
    operations: '*',
    where: '*.id',
    what: 'here, not in the reference',
    reason: 'Bundles also carry `id`, equal to `bundle_id`: the reference\'s own samples use it, and PUT checks a given `id` against the path.',
  },
  {
    operations: ['PUT /v1/bundles/{bundle_id}'],
    where: 'body.*',
    what: 'in the reference, not here',
    reason: 'The reference\'s body is a whole Bundle. Gatehouse reads only the fields a caller can change; the read-only counts and times are accepted and ignored.',
  },
  {
    operations: ['PUT /v1/bundles/{bundle_id}'],
    where: 'status 204',
    reason: 'An update always answers 200 with the updated bundle, so a client never has to read it back.',
  },
  {
    operations: ['PUT /v1/resources', 'PUT /v1/groups'],
    where: '*.folder_id',
    reason: 'Gatehouse has no folders; `folder_id` is neither stored nor returned.',
  },
  {
    operations: ['PUT /v1/resources', 'PUT /v1/groups'],
    where: 'response 200.*',
    reason: 'A bulk update answers each updated item whole (Resource or Group), where the reference lists only the updatable fields. Every updatable field is in the whole object too, except `folder_id`.',
  },
  {
    operations: ['POST /v1/resources', 'POST /v1/groups'],
    where: 'body.*',
    what: 'here, not in the reference',
    reason: 'Extension: create accepts every field that update accepts (owner, durations, approvals, request configurations, parent, access levels), so one call makes a complete item.',
  },
  {
    operations: ['POST /v1/resources', 'POST /v1/groups'],
    where: 'body.remote_info',
    reason: '`remote_info` is accepted as any JSON object of at most one kind and stored as given. Gatehouse syncs nothing, so it does not check each provider\'s fields.',
  },
  {
    operations: ['POST /v1/resources', 'POST /v1/groups'],
    where: 'body.remote_*_id',
    what: 'type string in the reference, number|string here',
    reason: 'The reference\'s samples send remote ids as numbers. Numbers are accepted and kept as text.',
  },
  {
    operations: [...RESOURCE_AND_GROUP_WRITES, ...TEMPLATE_WRITES],
    where: 'body*',
    what: 'type * in the reference, null|* here',
    reason: 'These fields also accept `null`, meaning "clear it" (no override, no template, no condition, no ticket propagation).',
  },
  {
    operations: PAGED_EDGE_LISTS,
    where: 'parameter query.*',
    what: 'here, not in the reference',
    reason: 'These lists page like every other list (`cursor`, `page_size`), so no answer is ever silently cut short. The reference\'s `limit` is still read as the page size.',
  },
  {
    operations: ['GET /v1/resources/{resource_id}/non-human-identities'],
    where: 'response 200.*',
    what: 'here, not in the reference',
    reason: 'The page carries `next` and `previous`, as every list does, so `limit` never cuts it short without saying so.',
  },
  {
    operations: ['GET /v1/resources/{resource_id}/users/{user_id}'],
    where: '*cursor',
    reason: 'A user holds at most a handful of levels on one resource, so the answer is never paged: `cursor` is neither read nor returned.',
  },
  {
    operations: ['POST /v1/tags/{tag_id}/groups/{group_id}', 'POST /v1/tags/{tag_id}/resources/{resource_id}'],
    where: 'body',
    reason: 'All three tag attachments take the same optional, ignored object body. The reference gives a body only to the user one.',
  },
  {
    operations: '*',
    where: 'body*access_level_remote_id',
    what: 'type string in the reference, number|string here',
    reason: 'One of the reference\'s samples sends an access level\'s remote id as a number. Numbers are accepted and kept as text; every answer gives the id as a string.',
  },
  {
    operations: CONTAINING_GROUP_ANSWERS,
    where: 'response 200.*',
    what: 'here, not in the reference',
    reason: 'Extension: a nesting answers its own `group_id`, its `access_level` (with the level\'s name) and its `expiration_date`, so a client need not work them out. Its `duration_minutes` is answered too: the minutes from when the nesting was given to when it ends, 0 for never.',
  },
  {
    operations: ['POST /v1/groups/{group_id}/resources/{resource_id}'],
    where: 'parameter query.duration_minutes',
    what: 'here, not in the reference',
    reason: 'All three edge POSTs read the same deprecated query parameters, so the group one also takes `duration_minutes` there, as the user ones do. The body still wins.',
  },
  {
    operations: ['GET /v1/resource-user-access-status/{resource_id}/{user_id}'],
    where: 'parameter query.page_size',
    what: 'type integer in the reference, string here',
    reason: 'The answer is one status, never a page: `cursor` and `page_size` are accepted for old clients and ignored, so any text is let through.',
  },
  {
    operations: ['GET /v1/resources/users/{user_id}'],
    where: 'parameter query.include_unmanaged',
    what: 'in the reference, not here',
    reason: 'Gatehouse holds no unmanaged resources: every resource it knows is one it manages, so the list is the same either way and the parameter is not read.',
  },
  {
    operations: ['GET /v1/access-rules', 'POST /v1/access-rules', 'GET /v1/access-rules/{access_rule_id}', 'PUT /v1/access-rules/{access_rule_id}'],
    where: '*attribute_selectors*',
    reason: 'Rules match on tags only. Gatehouse keeps no user attributes to select on: a non-empty `attribute_selectors` is refused (400) rather than ignored, since ignoring it inside `unless` would silently widen the rule.',
  },
  {
    operations: ['PUT /v1/group-bindings', 'PUT /v1/idp-group-mappings/{app_resource_id}'],
    where: 'response 200',
    what: 'the reference has no body here, Gatehouse has fields',
    reason: 'The reference answers these bulk updates with an empty 200. Gatehouse answers what is now stored (the updated bindings, the app\'s new set of mappings), so a client never has to read it back; a client expecting no body can ignore it.',
  },
  {
    operations: ['PUT /v1/idp-group-mappings/{app_resource_id}'],
    where: 'body.mappings[].*',
    what: 'type * in the reference, *null* here',
    reason: '`alias` and `hidden_from_end_user` also accept `null`, meaning the default: no alias, not hidden.',
  },
  {
    operations: ['POST /v1/message-channels', 'POST /v1/on-call-schedules'],
    where: 'body.*',
    what: 'here, not in the reference',
    reason: 'Extension: Gatehouse cannot look a channel or schedule up with its provider, so create may also give its `name` (and, for a channel, `is_private`), which every answer then carries.',
  },
  {
    operations: ['POST /v1/queries/run'],
    where: '*entityItemType*',
    what: 'enum adds *',
    reason: 'Item types are every user, group and resource type Gatehouse knows; the reference\'s EntityItemTypeEnum leaves out some of the types its own GroupTypeEnum and ResourceTypeEnum have.',
  },
  {
    operations: ['POST /v1/queries/run'],
    where: 'body.query.*not',
    what: 'Gatehouse lists fields here, the reference takes any object',
    reason: 'The reference types `not` as any object and says in words that it has the shape of the filter around it. Gatehouse describes it as that filter (AccessEntityFilters), which is what both read.',
  },
  {
    operations: ['GET /v1/event-streams', 'POST /v1/event-streams', 'PUT /v1/event-streams/{event_stream_id}'],
    where: '*.delivery',
    what: 'here, not in the reference',
    reason: 'Extension: an event stream reports where delivery stands (`delivery`: status, position, lag, consecutive failures, next attempt, last error), so a stream whose receiver keeps failing is visible.',
  },
  {
    operations: ['PUT /v1/event-streams/{event_stream_id}'],
    where: 'body.connection',
    what: 'here, not in the reference',
    reason: 'A client that sends back the whole EventStream a GET answered has its fields under `connection`; Gatehouse reads them from there too (top-level fields win), so such an update changes what it says instead of silently nothing.',
  },
  {
    operations: ['POST /v1/event-streams', 'PUT /v1/event-streams/{event_stream_id}'],
    where: 'body.credentials.hmac_credential_*.created_at',
    what: 'in the reference, not here',
    reason: 'Gatehouse stamps `created_at` itself when a secret is set; a `created_at` sent in a request is ignored.',
  },
  {
    operations: REQUEST_ANSWERS,
    where: '*.stages.stages[].reviewers[].delegated_from_user_id',
    what: 'here, not in the reference',
    reason: 'Extension: a reviewer acting through a delegation names the reviewer they act for, in the deprecated `stages` (the first item\'s stages, sent for clients generated from older versions of the reference) as in `reviewer_stages`.',
  },
  {
    operations: REQUEST_ANSWERS,
    where: '*.stages.stages[].reviewers[].decision_needed',
    what: 'here, not in the reference',
    reason: 'Extension: whether a reviewer is still asked to decide. The reference keeps an undecided reviewer PENDING after another reviewer settled the stage (any one of an OR stage), so a page would say "Pending" of someone nobody waits for.',
  },
  {
    operations: REQUEST_ANSWERS,
    where: '*reviewer_stages',
    what: 'type array|string in the reference, array here',
    reason: 'The reference may send an error message instead of the stages when reviewers cannot be loaded. Gatehouse stores every request\'s stages and reviewers when it is created, so they always load and the field is always a list.',
  },
  {
    operations: REQUEST_ANSWERS,
    where: '*request_comments',
    what: 'here, not in the reference',
    reason: 'The spec lists `request_comments` on the Request (the reference shows them only in its example): every Request carries its comments.',
  },
  {
    operations: REQUEST_ANSWERS,
    where: '*support_ticket',
    what: 'here, not in the reference',
    reason: 'Extension: the support ticket given with a request is shown on it, so a reviewer sees what the item required.',
  },
  {
    operations: ['GET /v1/requests/{id}/comments'],
    where: '*.updated_at',
    what: 'here, not in the reference',
    reason: 'The spec lists `updated_at` (and `id`) on a request comment.',
  },
  {
    operations: ['POST /v1/requests'],
    where: 'parameter query.dry_run',
    reason: 'Extension: `dry_run=true` answers what the request would be (each item\'s configuration, stages and reviewers, and why) and writes nothing.',
  },
  {
    operations: ['POST /v1/requests'],
    where: 'response 200',
    what: 'the reference lists fields here, Gatehouse takes any object',
    reason: 'The answer is `{ id }` as in the reference, or, for `dry_run=true` (extension), a RequestDryRun: the document says so with a oneOf.',
  },
  {
    operations: '*',
    where: '*break_glass*',
    what: 'here, not in the reference',
    reason: 'Extension (docs/break-glass.md): resources and groups name who may break glass on them and for how long (`break_glass_user_ids`, `break_glass_group_ids`, `break_glass_max_minutes`; templates add the last two to the reference\'s `break_glass_user_ids`); a request approved by the break-glass rule says `break_glass: true`, and `GET /v1/requests?break_glass=true` lists them.',
  },
  {
    operations: '*',
    where: '*approval_reason',
    what: 'here, not in the reference',
    reason: 'Extension (docs/on-call.md): a request a rule approved at once says why in words — "approved because you are on call for Payments primary until 18:00 UTC" — and its grant ends no later than the shift; so does each item the rotation approved in a request whose other items wait for reviewers.',
  },
  {
    operations: '*',
    where: '*requested_items_list[].on_call_until',
    what: 'here, not in the reference',
    reason: 'Extension (docs/on-call.md): an item the on-call rotation approved carries the end of the shift that approved it; its grant ends no later than that, whenever the rest of the request is approved.',
  },
];

const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);

/** Whether `deviation` covers the difference `what` at `where` in `operation`. */
export function covers(deviation: Deviation, operation: string, where: string, what: string): boolean {
  if (deviation.operations !== '*' && !deviation.operations.includes(operation)) return false;
  return glob(deviation.where).test(where) && (deviation.what === undefined || glob(deviation.what).test(what));
}

/** The list as Markdown, for docs/openapi.md. */
export function renderDeviations(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = DEVIATIONS.map((d) => {
    const ops = d.operations === '*' ? 'any' : d.operations.map((op) => `\`${op}\``).join(', ');
    return `| ${ops} | \`${cell(d.where)}\`${d.what ? ` (${cell(d.what)})` : ''} | ${cell(d.reason)} |`;
  });
  return ['| operations | where | why |', '| --- | --- | --- |', ...rows].join('\n');
}
