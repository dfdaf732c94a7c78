// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "json/jsonalignment.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <vector>

namespace structscope {

/// A stretch of a text (QString indices) and what it shows.
struct TextSpan
{
    int start = 0;
    int length = 0;
    int tag = 0; ///< the caller's meaning (gold value, predicted value, selected, …)
    friend bool operator==(const TextSpan&, const TextSpan&) = default;
};

/// A value to look for in a source text, and the tag its occurrences get.
struct Needle
{
    QString text;
    int tag = 0;
};

/// The text a JSON leaf is looked for as: a string as it is, a number or boolean as JSON writes it,
/// "" for null and containers (never highlighted).
QString searchTextOf(const nlohmann::json& value);

/// The tags of diffNeedles().
enum HighlightTag { SelectedGold, SelectedPredicted, GoldValue, PredictedValue };

/// What the diff view highlights in the source text: the selected row's gold and predicted values
/// first (they win overlaps), then every gold leaf, then every predicted leaf that differs.
std::vector<Needle> diffNeedles(const std::vector<AlignedRow>& rows, int selectedRow);

/// Every occurrence of every needle in `text`, case-insensitively and only as a whole word (no letter
/// or digit right before or after it), sorted by start. Needles shorter than `minLength` characters
/// are skipped, except numbers, which match as words anyway. Where occurrences overlap, the earlier
/// needle in `needles` wins; a later one is dropped where it overlaps a kept span.
std::vector<TextSpan> findValueSpans(const QString& text, const std::vector<Needle>& needles, int minLength = 2);

} // namespace structscope
