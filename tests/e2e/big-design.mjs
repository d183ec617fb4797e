// Heavy designs the inspector allows. The largest scenario 4 backfill
// (3,660 dates, 64 in flight): the benchmark's and the long-search test's
// case. The slowest scenario 3 design to check (a 60-day lookback that
// appends, so silver grows with every run): the long-check test's case.
const node = (id, x, config, fixed = false) => ({ id, x, y: 120, config, fixed });

export const BIG_DESIGN = {
  format: 'partition-lab-design', version: 1, scenario: 4,
  graph: {
    nodes: {
      0: node(0, 40, { Source: { table: 'bronze.orders' } }, true),
      1: node(1, 280, { Backfill: { first: '2016-08-06', last: '2026-08-13', max_concurrency: 64, shape: 'PerDate', markers: 'AfterPartition', yield_to_scheduled: false } }),
      2: node(2, 520, { Transform: { logic: 'Fixed', reads: 'Bronze', partition_key: 'EventDate' } }),
      3: node(3, 760, { Write: { table: 'silver.orders', mode: 'OverwritePartition' } }),
      4: node(4, 1000, { Report: { restate: 'AfterAllGold' } }),
    },
    edges: [{ from: 0, to: 1 }, { from: 1, to: 2 }, { from: 2, to: 3 }, { from: 3, to: 4 }],
    next_id: 5,
  },
};

export const SLOW_DESIGN = {
  format: 'partition-lab-design', version: 1, scenario: 3,
  graph: {
    nodes: {
      0: node(0, 40, { Source: { table: 'bronze.purchases' } }, true),
      1: node(1, 280, { State: { state: { PartitionList: { lookback: 60, over: 'ChangeDate' } }, commit: 'StateAfterWrite' } }),
      2: node(2, 520, { Transform: { logic: 'Fixed', reads: 'Bronze', partition_key: 'EventDate' } }),
      3: node(3, 760, { Write: { table: 'silver.purchases', mode: 'Append' } }),
      4: node(4, 1000, { Finaliser: { allowed_lateness_days: 2, after_final: 'Adjustments' } }),
    },
    edges: [{ from: 0, to: 1 }, { from: 1, to: 2 }, { from: 2, to: 3 }, { from: 3, to: 4 }],
    next_id: 5,
  },
};

/// Opens the design's scenario with the design imported.
export async function importDesign(page, url, design) {
  await page.goto(`${url}/scenarios/${design.scenario}`);
  await page.getByText('Save, share, import').click();
  await page.getByLabel(/Import a design file/).setInputFiles({ name: 'heavy.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(design)) });
  await page.locator('.notice').filter({ hasText: 'Imported heavy.json' }).waitFor();
}

/// Opens scenario 4 with the big design imported.
export async function importBig(page, url) {
  await importDesign(page, url, BIG_DESIGN);
}
