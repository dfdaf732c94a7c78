// SPDX-License-Identifier: Apache-2.0
#include "report/reportcache.h"

#include "util/sha256.h"
#include "json/jsontext.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

using nlohmann::json;
using namespace Qt::StringLiterals;

namespace structscope {

namespace {

constexpr std::string_view kFormat = "structscope-report-cache";
/// 2: groups carry their errored slots ("errored"), and n counts answers only: a report saved before is recomputed.
constexpr int kFormatVersion = 2;

/// Numbers as JSON numbers (shortest round-trip text, so each comes back exactly); NaN and the infinities, which
/// JSON has not, as strings.
json number(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    return value;
}

std::optional<double> numberFrom(const json& value)
{
    if (value.is_number())
        return value.get<double>();
    if (value == "nan")
        return std::numeric_limits<double>::quiet_NaN();
    if (value == "inf")
        return std::numeric_limits<double>::infinity();
    if (value == "-inf")
        return -std::numeric_limits<double>::infinity();
    return std::nullopt;
}

json valuesToJson(const std::map<std::string, double>& values)
{
    json out = json::object();
    for (const auto& [id, value] : values)
        out[id] = number(value);
    return out;
}

bool valuesFromJson(const json& in, std::map<std::string, double>& out)
{
    if (!in.is_object())
        return false;
    for (const auto& [id, value] : in.items()) {
        const auto v = numberFrom(value);
        if (!v)
            return false;
        out[id] = *v;
    }
    return true;
}

std::optional<CachedReport> fromJson(const json& root, const QString& stamp)
{
    if (!root.is_object() || root.value("format", std::string()) != kFormat
        || root.value("version", 0) != kFormatVersion || root.value("stamp", std::string()) != stamp.toStdString())
        return std::nullopt;
    CachedReport cached;
    Report& report = cached.report;
    report.gold = root.at("gold").get<std::string>();
    report.groupBy = root.at("group_by").get<std::vector<std::string>>();
    report.metrics = root.at("metrics").get<std::vector<std::string>>();
    for (const std::string& model : root.at("simulated").get<std::vector<std::string>>())
        cached.simulatedModels.insert(QString::fromStdString(model));
    for (const json& entry : root.at("groups")) {
        ReportGroup& g = report.groups.emplace_back();
        g.key = entry.at("key").get<std::vector<std::pair<std::string, std::string>>>();
        g.n = entry.at("n").get<int>();
        g.errored = entry.at("errored").get<int>();
        if (!valuesFromJson(entry.at("mean"), g.mean) || !valuesFromJson(entry.at("weighted_mean"), g.weightedMean))
            return std::nullopt;
        for (const auto& [id, bounds] : entry.at("ci95").items()) {
            if (!bounds.is_array() || bounds.size() != 2)
                return std::nullopt;
            const auto low = numberFrom(bounds[0]);
            const auto high = numberFrom(bounds[1]);
            if (!low || !high)
                return std::nullopt;
            g.ci95[id] = { *low, *high };
        }
    }
    return cached;
}

} // namespace

QString reportCacheFile(
    const QString& location, GoldBasis gold, const AggregateOptions& options, const QString& directory)
{
    json key = json::object();
    key["location"] = location.toStdString();
    key["gold"] = gold == GoldBasis::Adjusted ? "adjusted" : "measured";
    key["group_by"] = options.groupBy;
    std::vector<std::string> families = options.families;
    std::sort(families.begin(), families.end());
    key["families"] = families;
    key["resamples"] = options.bootstrap.resamples;
    key["seed"] = options.bootstrap.seed;
    key["confidence"] = options.bootstrap.confidence;
    key["method"] = int(options.bootstrap.method);
    key["scorer"] = kScorerVersion;
    key["version"] = STRUCTSCOPE_VERSION; // another build may aggregate differently

    const QByteArray name = Sha256::hash(key.dump()).toHex().left(32);
    const QString folder = directory.isEmpty()
        ? QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + u"/reports"_s
        : directory;
    return QDir(folder).filePath(QString::fromLatin1(name) + u".json"_s);
}

bool saveCachedReport(const QString& file, const QString& stamp, const CachedReport& cached, QString* error)
{
    json root = json::object();
    root["format"] = kFormat;
    root["version"] = kFormatVersion;
    root["stamp"] = stamp.toStdString();
    root["gold"] = cached.report.gold;
    root["group_by"] = cached.report.groupBy;
    root["metrics"] = cached.report.metrics;
    std::vector<std::string> simulated;
    for (const QString& model : cached.simulatedModels)
        simulated.push_back(model.toStdString());
    std::sort(simulated.begin(), simulated.end());
    root["simulated"] = simulated;
    json groups = json::array();
    for (const ReportGroup& g : cached.report.groups) {
        json entry = json::object();
        entry["key"] = g.key;
        entry["n"] = g.n;
        entry["errored"] = g.errored;
        entry["mean"] = valuesToJson(g.mean);
        entry["weighted_mean"] = valuesToJson(g.weightedMean);
        json ci = json::object();
        for (const auto& [id, interval] : g.ci95)
            ci[id] = json::array({ number(interval.low), number(interval.high) });
        entry["ci95"] = std::move(ci);
        groups.push_back(std::move(entry));
    }
    root["groups"] = std::move(groups);
    // Keys are valid UTF-8 (they come from QStrings); replace() only guards against a surprise.
    const std::string text = root.dump(-1, ' ', false, json::error_handler_t::replace);

    if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
        if (error)
            *error = u"cannot create the folder of %1"_s.arg(QDir::toNativeSeparators(file));
        return false;
    }
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(text.data(), qint64(text.size())) != qint64(text.size())
        || !out.commit()) {
        if (error)
            *error = u"cannot write %1: %2"_s.arg(QDir::toNativeSeparators(file), out.errorString());
        return false;
    }
    // One file per store and view: the folder keeps the most recently saved kSavedReportsKept and forgets the rest.
    const QFileInfoList saved
        = QFileInfo(file).absoluteDir().entryInfoList({ u"*.json"_s }, QDir::Files, QDir::Time); // newest first
    const QString kept = QFileInfo(file).absoluteFilePath();
    for (qsizetype i = kSavedReportsKept; i < saved.size(); ++i) {
        if (saved.at(i).absoluteFilePath() != kept) // saved within the same millisecond as others: still the newest
            QFile::remove(saved.at(i).absoluteFilePath());
    }
    return true;
}

std::optional<CachedReport> loadCachedReport(const QString& file, const QString& stamp)
{
    QFile in(file);
    if (stamp.isEmpty() || !in.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = in.readAll();
    json root;
    if (!parseJsonText(std::string_view(bytes.constData(), std::size_t(bytes.size())), 512, root).ok)
        return std::nullopt;
    try {
        return fromJson(root, stamp);
    } catch (const json::exception&) {
        return std::nullopt; // a member of the wrong type: someone else's file, or a damaged one
    }
}

} // namespace structscope
