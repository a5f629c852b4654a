#!/usr/bin/env python3
"""Extra-P's predictions on the bench's protocol, for a table of strong-scaling series.

For each series of TABLE.csv (`series,procs,time_s,...`, one row per process count; rows of the same P
are averaged as Extra-P averages repetitions): Extra-P's default single-parameter modeller fits the
cost time x P on the 5 smallest P, and its model divided by P is the predicted run time at every larger
P. Writes `series,p_train_max,p_test,measured,extrap_pred,rel_err,model` (the layout of every
`bench/data/*/extrap_baseline.csv`).

Extra-P is run beside the project, not bundled: a source tree of extra-p/extrap (4.2.5 is commit
291ac815) with Debian's python3-numpy, python3-scipy, python3-sklearn, python3-marshmallow,
python3-packaging, python3-tqdm and python3-matplotlib:

  /usr/bin/python3 bench/extrap_baseline.py TABLE.csv OUT.csv --extrap-src /path/to/extrap
"""
import argparse
import csv
import os
import sys
from collections import defaultdict

TRAINING_POINTS = 5


def load_series(path):
    series = defaultdict(lambda: defaultdict(list))
    order = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            name = row["series"]
            if name not in series:
                order.append(name)
            series[name][int(float(row["procs"]))].append(float(row["time_s"]))
    return order, series


def fit(extrap, procs, times):
    experiment = extrap["Experiment"]()
    parameter = extrap["Parameter"]("p")
    experiment.add_parameter(parameter)
    callpath = extrap["Callpath"]("main")
    metric = extrap["Metric"]("time")
    experiment.add_callpath(callpath)
    experiment.add_metric(metric)
    for p in procs:
        coordinate = extrap["Coordinate"](float(p))
        experiment.add_coordinate(coordinate)
        experiment.add_measurement(extrap["Measurement"](coordinate, callpath, metric, [t * p for t in times[p]]))
    generator = extrap["ModelGenerator"](experiment)
    generator.model_all()
    return generator.models[(callpath, metric)].hypothesis.function


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("table")
    parser.add_argument("out")
    parser.add_argument("--extrap-src", required=True, help="a source tree of extra-p/extrap")
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.extrap_src))
    from extrap.entities.callpath import Callpath
    from extrap.entities.coordinate import Coordinate
    from extrap.entities.experiment import Experiment
    from extrap.util.string_formats import FunctionFormats
    from extrap.entities.measurement import Measurement
    from extrap.entities.metric import Metric
    from extrap.entities.parameter import Parameter
    from extrap.modelers.model_generator import ModelGenerator
    extrap = dict(Experiment=Experiment, Parameter=Parameter, Callpath=Callpath, Metric=Metric,
                  Coordinate=Coordinate, Measurement=Measurement, ModelGenerator=ModelGenerator,
                  FunctionFormats=FunctionFormats)

    order, series = load_series(args.table)
    rows = []
    for name in order:
        times = series[name]
        procs = sorted(times)
        if len(procs) <= TRAINING_POINTS:
            continue
        train = procs[:TRAINING_POINTS]
        function = fit(extrap, train, times)
        model = function.to_string("p", format=extrap["FunctionFormats"].PYTHON)
        for p in procs[TRAINING_POINTS:]:
            measured = sum(times[p]) / len(times[p])
            predicted = function.evaluate(float(p)) / p
            rows.append([name, train[-1], p, measured, predicted, (predicted - measured) / measured, model])
    temporary = args.out + ".partial"
    with open(temporary, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["series", "p_train_max", "p_test", "measured", "extrap_pred", "rel_err", "model"])
        writer.writerows(rows)
    os.replace(temporary, args.out)


if __name__ == "__main__":
    main()
