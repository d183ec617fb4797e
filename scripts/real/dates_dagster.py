"""Asks Dagster itself for the /dates page's Dagster dates. For every case it
writes a module with exactly the page's partitions definition, a daily asset
over it, its job and the schedule build_schedule_from_partitioned_job makes,
and checks:
- the schedule's cron is the page's, it fires at the page's tick, and its
  tick there requests exactly partition d, and no tick in the L+2 days
  after asks for d again (the page: Dagster has no allowed lateness);
- partition d's time window is the page's;
- `dg launch --partition-range <range>`'s range (split and validated as dg
  does) covers exactly the page's keys: PartitionKeyRange's keys, and the
  keys a run with that range (materialized in process, one run, as dg
  launches it) hands the asset.

usage: dates_dagster.py <folder written by partition-lab-export>/dates
"""
import atexit
import datetime
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import warnings

from page_values import differs, instant

MODULE = '''# Partition Lab /dates check: the page's partitions, verbatim.
from dagster import (AssetExecutionContext, BackfillPolicy, DailyPartitionsDefinition, Definitions, asset,
                     build_schedule_from_partitioned_job, define_asset_job)

PARTITIONS = {partitions}
HANDED = []


@asset(partitions_def=PARTITIONS, backfill_policy=BackfillPolicy.single_run())
def day(context: AssetExecutionContext) -> None:  # no IO manager: one output, many partitions
    HANDED.append(list(context.partition_keys))


job = define_asset_job("dates_job", selection=[day], partitions_def=PARTITIONS)
schedule = build_schedule_from_partitioned_job(job, name="dates_schedule")
defs = Definitions(assets=[day], jobs=[job], schedules=[schedule])
'''


def checked(module, page, lateness):
    """Each way Dagster's dates differ from the page's."""
    from dagster import DagsterInstance, PartitionKeyRange, build_schedule_context, materialize
    from dagster._core.storage.tags import ASSET_PARTITION_RANGE_END_TAG, ASSET_PARTITION_RANGE_START_TAG
    from dagster._utils.schedules import schedule_execution_time_iterator

    wrong = []
    schedule = module.defs.resolve_schedule_def("dates_schedule")
    if schedule.cron_schedule != page["cron"]:
        wrong.append(f"the schedule's cron is {schedule.cron_schedule!r}, the page says {page['cron']!r}")
    tick = instant(page["tick"])
    fires = next(schedule_execution_time_iterator(tick.timestamp(), schedule.cron_schedule, schedule.execution_timezone))
    if fires != tick:
        wrong.append(f"the schedule does not fire at {page['tick']}: its next tick is {fires.isoformat()}")
    requests = schedule.evaluate_tick(build_schedule_context(scheduled_execution_time=tick)).run_requests or []
    keys = [r.partition_key for r in requests]
    if keys != [page["key"]]:
        wrong.append(f"the tick at {page['tick']} requests {keys}, the page says [{page['key']}]")
    # The page says that after downtime Dagster launches only the latest
    # missed tick: its scheduler catches up more (max_catchup_runs) only for
    # a schedule with a partition set, which no schedule defined in code has.
    from dagster._core.remote_representation.external_data import ScheduleSnap
    if ScheduleSnap.from_def(schedule, module.defs.get_repository_def()).partition_set_name is not None:
        wrong.append("the schedule has a partition set: Dagster would catch up more than its latest missed tick")
    # The page says Dagster has no allowed lateness: no later tick asks for
    # d again, however many days the lab would keep it open.
    for later in range(1, lateness + 3):
        at = tick + datetime.timedelta(days=later)
        again = schedule.evaluate_tick(build_schedule_context(scheduled_execution_time=at)).run_requests or []
        if page["key"] in [r.partition_key for r in again]:
            wrong.append(f"the tick at {at.isoformat()} requests {page['key']} again")
    try:
        window = module.PARTITIONS.time_window_for_partition_key(page["key"])
        if [window.start, window.end] != [instant(x) for x in page["window"]]:
            wrong.append(f"partition {page['key']}'s window is {window.start.isoformat()} to {window.end.isoformat()}, "
                         f"the page says {page['window'][0]} to {page['window'][1]}")
    except Exception as e:
        wrong.append(f"partition {page['key']} has no window: {e}")

    # `dg launch --partition-range`: split on "..." and validated as dg does
    # (dagster/_cli/asset.py), then one run over the range.
    parts = page["range"].split("...")
    if len(parts) != 2:
        return wrong + [f"dg launch would refuse --partition-range {page['range']}: not <start>...<end>"]
    start, end = parts
    missing = [k for k in parts if not module.PARTITIONS.has_partition_key(k)]
    if missing:
        return wrong + [f"dg launch would refuse --partition-range {page['range']}: no partition {', '.join(missing)}"]
    in_range = module.PARTITIONS.get_partition_keys_in_range(PartitionKeyRange(start, end))
    if list(in_range) != page["keys"]:
        wrong.append(f"PartitionKeyRange({start}, {end}) holds {differs(list(in_range), page['keys'], 'key')}")
    module.HANDED.clear()
    with DagsterInstance.ephemeral() as instance:
        result = materialize([module.day], instance=instance, raise_on_error=False,
                             tags={ASSET_PARTITION_RANGE_START_TAG: start, ASSET_PARTITION_RANGE_END_TAG: end},
                             run_config={"loggers": {"console": {"config": {"log_level": "ERROR"}}}})
        failures = [e.message for e in result.all_events if e.is_failure]
    if not result.success:
        wrong.append(f"a run over --partition-range {page['range']} failed: {failures}")
    elif len(module.HANDED) != 1:
        wrong.append(f"a run over --partition-range {page['range']} ran the asset {len(module.HANDED)} times, not once")
    elif module.HANDED[0] != page["keys"]:
        wrong.append(f"a run over --partition-range {page['range']} builds {differs(module.HANDED[0], page['keys'], 'key')}")
    return wrong


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "expected.json")) as f:
        cases = json.load(f)
    # backfill_policy is beta in 1.13; its warning says nothing here.
    warnings.filterwarnings("ignore", message=".*currently in beta")
    work = tempfile.mkdtemp(prefix="dagster-dates-")
    atexit.register(shutil.rmtree, work, True)
    failed = 0
    for i, case in enumerate(cases, 1):
        page = case["dagster"]
        path = os.path.join(work, f"dates_{i}.py")
        with open(path, "w") as f:
            f.write(MODULE.format(partitions=page["partitions"]))
        spec = importlib.util.spec_from_file_location(f"dates_{i}", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
            wrong = checked(module, page, case["lateness"])
        except Exception as e:
            wrong = [f"Dagster refuses the page's definitions: {type(e).__name__}: {e}"]
        if wrong:
            failed += 1
            print(f"Dagster (case {i}: day {case['day']}) differs from the page:")
            for w in wrong:
                print(f"  {w}")
        else:
            print(f"Dagster: over {page['partitions']}, build_schedule_from_partitioned_job runs `{page['cron']}`; "
                  f"its tick at {page['tick'][:16].replace('T', ' ')} requests exactly {page['key']}, whose window is "
                  f"{page['window'][0][:16].replace('T', ' ')} to {page['window'][1][:16].replace('T', ' ')}; "
                  f"--partition-range {page['range']} is one run of {len(page['keys'])} key(s) "
                  f"({page['keys'][0]} to {page['keys'][-1]})")
    if not cases:
        print("Dagster: no case to check")
        failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
