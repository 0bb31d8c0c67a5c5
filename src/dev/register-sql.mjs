// Registers src/dev/sql-hooks.mjs; passed to node/tsx as `--import ./src/dev/register-sql.mjs`.
import { register } from 'node:module';

register('./sql-hooks.mjs', import.meta.url);
