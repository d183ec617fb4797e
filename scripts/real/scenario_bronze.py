"""A scenario's bronze as its replays on SQLMesh and Dagster load it: the
export's bronze.csv for one script kept whole as `lab_all`, and the
scenario's source table, empty, filled run by run with what has arrived."""
import os

COLUMNS = "id, key, event_time, updated_at, arrived_at, amount_minor, currency, dt"


def prepare(con, folder, script, source):
    """`lab_all` holding `script`'s rows of the export's bronze.csv, and
    `source` (schema included) empty, shaped like it."""
    con.execute(f"create schema if not exists {source.split('.')[0]}")
    con.execute(
        f"create table lab_all as select {COLUMNS} from read_csv('{os.path.join(folder, 'bronze.csv')}', header = true, "
        "types = {'id': 'varchar', 'key': 'varchar', 'event_time': 'timestamp', 'updated_at': 'timestamp', "
        "'arrived_at': 'timestamp', 'amount_minor': 'bigint', 'currency': 'varchar', 'dt': 'date', 'change_date': 'date', 'script': 'varchar'}) "
        f"where script = '{script}'"
    )
    con.execute(f"create table {source} as select * from lab_all limit 0")


def arrived(source, before, at):
    """The SQL that loads into `source` what arrived after `before`, up to `at`."""
    return f"insert into {source} select * from lab_all where arrived_at > '{before}' and arrived_at <= '{at}'"
