// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QString>
#include <QStringList>

namespace structscope {

/// Folders that may hold the built-in suites, in the order they are searched: $STRUCTSCOPE_DATASETS,
/// <binary>/../share/structscope/datasets (installed), <binary>/datasets, and the source tree's datasets/
/// (a development build). Only existing folders are listed.
QStringList builtInSuiteRoots();

/// The names of the built-in suites found in builtInSuiteRoots() (each a folder with a suite.json).
QStringList builtInSuiteNames();

/// A suite folder from what a user typed: a folder with a suite.json, else the name of a built-in suite.
/// Empty, with a message listing the built-in names, when neither.
QString resolveSuitePath(const QString& nameOrDir, QString* error = nullptr);

} // namespace structscope
