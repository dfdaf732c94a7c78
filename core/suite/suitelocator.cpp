// SPDX-License-Identifier: Apache-2.0
#include "suite/suitelocator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace structscope {

QStringList builtInSuiteRoots()
{
    QStringList candidates;
    if (const QString env = qEnvironmentVariable("STRUCTSCOPE_DATASETS"); !env.isEmpty())
        candidates << env;
    if (QCoreApplication::instance()) {
        const QString bin = QCoreApplication::applicationDirPath();
        candidates << bin + u"/../share/structscope/datasets"_s << bin + u"/datasets"_s;
    }
#ifdef STRUCTSCOPE_SOURCE_DATASETS
    candidates << QStringLiteral(STRUCTSCOPE_SOURCE_DATASETS);
#endif
    QStringList roots;
    for (const QString& c : std::as_const(candidates)) {
        const QString clean = QDir::cleanPath(c);
        if (QFileInfo(clean).isDir() && !roots.contains(clean))
            roots << clean;
    }
    return roots;
}

QStringList builtInSuiteNames()
{
    QStringList names;
    for (const QString& root : builtInSuiteRoots()) {
        const QDir dir(root);
        for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (QFileInfo::exists(dir.filePath(name + u"/suite.json"_s)) && !names.contains(name))
                names << name;
        }
    }
    return names;
}

QString resolveSuitePath(const QString& nameOrDir, QString* error)
{
    if (QFileInfo::exists(nameOrDir + u"/suite.json"_s))
        return QDir::cleanPath(nameOrDir);
    const bool looksLikeName = !nameOrDir.isEmpty() && !nameOrDir.contains(u'/') && !nameOrDir.contains(u'\\');
    if (looksLikeName) {
        for (const QString& root : builtInSuiteRoots()) {
            QString dir = root + u'/' + nameOrDir;
            if (QFileInfo::exists(dir + u"/suite.json"_s))
                return dir;
        }
    }
    if (error) {
        const QStringList names = builtInSuiteNames();
        *error = u"'%1' is neither a suite folder (with a suite.json) nor a built-in suite%2"_s.arg(nameOrDir,
            names.isEmpty() ? u" (no built-in suites were found)"_s : u" (built-in: %1)"_s.arg(names.join(u", "_s)));
    }
    return {};
}

} // namespace structscope
