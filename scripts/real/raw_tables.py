"""The raw tables a backfill project reads, loaded into warehouse.duckdb in
the working folder: shared by the SQLMesh and Dagster checks."""
import os

import duckdb


def load(bronze_sign):
    """raw.bronze_orders and raw.fx_rates from the folder's CSV; bronze's
    amounts times `bronze_sign`. -1 spoils every day, with any withdrawn
    orders back in, so a day rebuilt from the true rows is told from one
    left alone, and an emptied day from one kept."""
    con = duckdb.connect("warehouse.duckdb")
    con.execute("create schema if not exists raw")
    files = ["bronze_orders.csv"]
    if bronze_sign < 0 and os.path.exists("withdrawn_orders.csv"):
        files.append("withdrawn_orders.csv")
    con.execute(
        "create or replace table raw.bronze_orders as select order_id, cast(dt as date) as dt, "
        f"cast(amount as decimal(18,2)) * {bronze_sign} as amount, currency "
        f"from read_csv({files!r}, header = true, all_varchar = true)"
    )
    con.execute(
        "create or replace table raw.fx_rates as select currency, cast(dt as date) as dt, "
        "cast(gbp_per_unit as decimal(18,6)) as gbp_per_unit "
        "from read_csv('fx_rates.csv', header = true, all_varchar = true)"
    )
    con.close()
