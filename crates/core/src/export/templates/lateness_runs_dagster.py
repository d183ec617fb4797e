def replay(last_run):
    """Dagster, in process: at each tick the definitions' own schedule is
    evaluated and each run it requests (one run over its range of days) is
    materialized. The booked ids and the runs."""
    import importlib.util
    import tempfile
    import warnings
    from datetime import timezone

    from dagster import DagsterInstance, build_schedule_context, materialize

    warnings.filterwarnings("ignore")
    spec = importlib.util.spec_from_file_location("definitions", os.path.join(HERE, "definitions.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    resource = module.defs.resources["duckdb"]
    quiet = {"loggers": {"console": {"config": {"log_level": "ERROR"}}}}
    tick, before, runs = FIRST_RUN, datetime(1970, 1, 1), 0
    with tempfile.TemporaryDirectory() as home, DagsterInstance.local_temp(tempdir=home) as instance:
        while tick <= last_run:
            con = duckdb.connect(WAREHOUSE)
            con.execute(ARRIVED.format(before, tick))
            con.close()
            context = build_schedule_context(instance=instance, scheduled_execution_time=tick.replace(tzinfo=timezone.utc),
                                             repository_def=module.defs.get_repository_def())
            for request in module.nightly.evaluate_tick(context).run_requests or []:
                runs += 1
                result = materialize([module.orders], instance=instance, resources={"duckdb": resource},
                                     tags=request.tags, run_config=quiet, raise_on_error=False)
                if not result.success:
                    raise SystemExit(f"the run for the tick at {tick} failed: "
                                     + "; ".join(str(e.message) for e in result.all_events if e.is_failure))
            before, tick = tick, tick + timedelta(days=1)
    con = duckdb.connect(WAREHOUSE)
    booked = booked_rows(lambda sql: con.execute(sql).fetchall())
    con.close()
    return booked, runs
