/** The generated tables of docs/ are what their commands write (scripts/doc-tables.ts). */
import assert from 'node:assert/strict';
import { readDoc, TABLES, withTable } from '../../scripts/doc-tables';

describe('generated docs tables match their sources', () => {
  for (const table of TABLES) {
    it(`${table.file}: the ${table.name} table is what \`${table.command}\` writes`, () => {
      const committed = readDoc(table);
      assert.ok(
        committed === withTable(committed, table),
        `${table.file} is out of date with ${table.source}: run \`${table.command}\` and commit the result`,
      );
    });
  }

  it('a table is replaced between its markers only, the prose around it kept', () => {
    const [table] = TABLES;
    assert.ok(table !== undefined);
    const text = `intro\n<!-- ${table.name}:start old -->\nstale\n<!-- ${table.name}:end -->\noutro\n`;
    const out = withTable(text, table);
    assert.ok(out.startsWith('intro\n<!-- ') && out.endsWith(`\n<!-- ${table.name}:end -->\noutro\n`));
    assert.ok(!out.includes('stale') && out.includes(table.render()));
    assert.throws(() => withTable('no markers', table), /markers/);
  });
});
