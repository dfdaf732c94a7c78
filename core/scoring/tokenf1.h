// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

// SQuAD token F1 exactly as SOB's Python scorer computes it:
//   text = "null" | "true"/"false" | str(value); text.lower(); re.sub(r"[^\w\s]", " ");
//   re.sub(r"\b(a|an|the)\b", " "); split on whitespace.
// The net effect is: tokens are the maximal runs of word characters of the lower-cased text,
// minus the tokens "a", "an" and "the".
//
// Unicode fidelity (checked against Python 3.11 / Unicode 14, which Qt 6.4 also ships):
// - a word character is QChar::isLetterOrNumber() or '_', identical to Python's \w for every code
//   point (letters and numbers of any script; combining marks are NOT word characters, as in Python);
// - lower-casing is QChar::toLower() per code point plus Python's two context/length rules:
//   U+0130 becomes "i" + U+0307, and capital sigma becomes final sigma at the end of a word;
// - invalid UTF-8 (which Python never sees after json.loads) counts as a separator.

namespace structscope {

/// The text SOB tokenizes for a leaf value: "null" for null or a missing value (nullptr),
/// "true"/"false", Python's str() of numbers ("1.0", "1e-05"), strings unchanged.
std::string sobValueText(const nlohmann::json* value);

/// Normalised tokens of `text` (lower-cased word runs, articles dropped), in order.
std::vector<std::string> sobTokens(std::string_view text);

/// SQuAD token F1 of two texts: both without tokens → 1, one without → 0, else F1 of the token
/// multisets' overlap.
double textTokenF1(std::string_view gold, std::string_view predicted);

/// Token F1 of two leaf values (nullptr = missing, tokenized as "null"). Allocation-free after warm-up.
double tokenF1(const nlohmann::json* gold, const nlohmann::json* predicted);

} // namespace structscope
