// A reply body already serialised (by a read worker, src/reads/pool.ts): the router sends its text as is.
export class JsonText {
  constructor(readonly text: string) {}
}
