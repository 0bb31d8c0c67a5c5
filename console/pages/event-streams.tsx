// Event streams (admins): webhook receivers of the audit trail. List them with where delivery stands, create
// one (an HMAC signing secret generated and shown once), send a test event, pause or resume, delete after a confirmation.
import { useState } from 'preact/hooks';
import { del, get, post, put, type Me, type Schema } from '../api.ts';
import { AdminOnly, inWords, Link, Page, Pending, Problem, useAction, useConfirm, useLoad, when } from '../ui.tsx';

type Stream = Schema<'EventStream'>;

export function EventStreams(props: { me: Me }) {
  const loaded = useLoad(() => get('/event-streams'), []);
  const confirm = useConfirm();
  const action = useAction();
  const [tested, setTested] = useState<{ id: string; text: string; ok: boolean } | undefined>(undefined);
  const [secret, setSecret] = useState<{ name: string; secret: string } | undefined>(undefined);
  const test = (s: Stream) => action.run(async () => {
    setTested(undefined);
    const result = await post('/event-streams/{event_stream_id}/test', { path: { event_stream_id: s.event_stream_id } });
    setTested({ id: s.event_stream_id, ok: result.delivered, text: result.delivered ? `${s.connection.name}: the receiver took the test event.` : `${s.connection.name}: not delivered: ${result.error ?? 'no reason given'}.` });
  });
  const toggle = (s: Stream) => action.run(() => put('/event-streams/{event_stream_id}', { path: { event_stream_id: s.event_stream_id }, body: { enabled: !s.connection.enabled } })).then((ok) => ok && loaded.reload());
  return (
    <Page title="Event streams">
      <AdminOnly me={props.me}>
        <p class="hint">Every audit event is sent, in order, to each enabled stream's receiver (a webhook), signed with Standard Webhooks. <Link href="/console/settings">Settings</Link></p>
        <Pending loaded={loaded}>{({ event_streams: streams }) => streams.length === 0 ? <p>No event streams yet.</p> : (
          <div class="table-wrap">
            <table class="stack">
              <caption>Event streams</caption>
              <thead><tr><th scope="col">Name</th><th scope="col">Receiver</th><th scope="col">Delivery</th><th scope="col">Last delivered</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>{streams.map((s) => (
                <tr key={s.event_stream_id}>
                  <td data-label="Name">{s.connection.name}</td>
                  <td data-label="Receiver"><code>{s.connection.webhook_url}</code></td>
                  <td data-label="Delivery">
                    {s.delivery ? `${inWords(s.delivery.status)}${s.delivery.lag > 0 ? `, ${s.delivery.lag} event${s.delivery.lag === 1 ? '' : 's'} to send` : ', up to date'}` : '—'}
                    {s.delivery?.last_error && <><br /><span class="hint">Last error {when(s.delivery.last_error_at)}: {s.delivery.last_error}</span></>}
                  </td>
                  <td data-label="Last delivered">{when(s.delivery?.last_delivered_at)}</td>
                  <td class="row-actions"><div class="decisions">
                    <button type="button" disabled={action.busy} onClick={() => test(s)}>Send a test event to {s.connection.name}</button>
                    <button type="button" disabled={action.busy} onClick={() => toggle(s)}>{s.connection.enabled ? 'Pause' : 'Resume'} {s.connection.name}</button>
                    <button type="button" class="danger" onClick={() => confirm.ask({
                      title: `Delete the event stream ${s.connection.name}?`,
                      body: <p>Nothing more is sent to {s.connection.webhook_url}, and the stream's secrets and position are gone: a new stream starts after the newest event.</p>,
                      confirm: `Delete ${s.connection.name}`,
                      action: () => del('/event-streams/{event_stream_id}', { path: { event_stream_id: s.event_stream_id } }),
                      done: loaded.reload,
                    })}>Delete {s.connection.name}</button>
                  </div></td>
                </tr>
              ))}</tbody>
            </table>
          </div>
        )}</Pending>
        {tested && <p class={tested.ok ? 'notice' : 'error'} role="status">{tested.text}</p>}
        <Problem message={action.error} />
        <h2>Create an event stream</h2>
        <NewStream onCreated={(stream) => {
          const generated = stream.connection.credentials?.hmac_credential_1?.secret;
          setSecret(generated ? { name: stream.connection.name, secret: generated } : undefined);
          loaded.reload();
        }} />
        {secret && (
          <div class="notice" role="status">
            <p>The signing secret of {secret.name}, shown only now: give it to the receiver so it can check each delivery's signature.</p>
            <p><input readOnly value={secret.secret} aria-label={`Signing secret of ${secret.name}`} onFocus={(e) => e.currentTarget.select()} /></p>
          </div>
        )}
        {confirm.dialog}
      </AdminOnly>
    </Page>
  );
}

function NewStream(props: { onCreated: (stream: Stream) => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [signed, setSigned] = useState(true);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await action.run(async () => {
      props.onCreated(await post('/event-streams', { body: { name: name.trim(), connection_type: 'WEBHOOK', webhook_url: url.trim(), credentials: { auth_type: signed ? 'HMAC' : 'NONE' } } }));
    });
    if (ok) {
      setName('');
      setUrl('');
    }
  };
  return (
    <form onSubmit={submit}>
      <div class="field"><label for="stream-name">Name</label>
        <input id="stream-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} /></div>
      <div class="field"><label for="stream-url">Receiver URL</label>
        <input id="stream-url" type="url" required placeholder="https://siem.example.com/hook" value={url} onInput={(e) => setUrl(e.currentTarget.value)} /></div>
      <div class="field check">
        <input id="stream-signed" type="checkbox" checked={signed} onChange={(e) => setSigned(e.currentTarget.checked)} />
        <label for="stream-signed">Sign deliveries (a secret is generated and shown once)</label>
      </div>
      <button type="submit" class="primary" disabled={action.busy}>Create event stream</button>
      <Problem message={action.error} />
    </form>
  );
}
