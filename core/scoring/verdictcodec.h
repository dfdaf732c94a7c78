// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "scoring/verdict.h"

#include <string>
#include <string_view>

// A scored Verdict as a compact byte string, so that the store can keep verdicts and read them back instead of
// scoring again. Exact: decoding gives back every field, doubles bit for bit (NaN payloads and -0.0 too), JSON
// values with their number types, and the metric values in their order.
//
// Format (version 2), integers as LEB128 varints (signed ones zigzagged), doubles as a tag byte (+0.0, 1.0, or the
// 8 bytes of the bit pattern after it, little-endian), strings as a byte count and the bytes:
//   version byte · rung, ladder and strict ladder labels in one byte · a byte of flags (schemaValid, extraction's
//   failed and correct, and which of the optional parts follow) · [parse reason] · [schema errors] · extraction
//   counts, strict and lenient, and points · [differences] · [grounding scores] · [contract scores] · metric values,
//   each as a code from a fixed table of the scorer's metric ids (or an escape and the id) and its value · field
//   tallies: their count (0 for none), then each one's path (the length of the prefix it shares with the previous
//   one, and the rest), its elements times two plus one when all are correct, and else its six other counts
//   (correct, lenient, missing, wrong, invented, type errors). Empty tallies are kept as none.
// JSON values (of the differences) are a type tag and the value; object keys in the map's (bytewise) order.
//
// Decoding accepts exactly what encodeVerdict() writes: anything else (a varint or double written longer than it
// need be, an optional part flagged present but empty, object keys out of order, unused flag bits set...) is an
// error, so that a stored verdict has one encoding and a damaged one is not silently read as another.

namespace structscope {

/// The first byte of every encoding; a stored verdict of another version does not decode (score it again).
inline constexpr int kVerdictCodecVersion = 2;

/// `verdict` as bytes that decodeVerdict() reads back exactly. Never throws (but std::bad_alloc).
std::string encodeVerdict(const Verdict& verdict);

/// Reads an encoding of encodeVerdict(). Any input is safe: a truncated, damaged, oversized or foreign one returns
/// false with a short reason in `error` (may be null), and leaves `out` valid but unspecified. Nesting of JSON values
/// deeper than 512 containers and unknown metric ids longer than 255 bytes are refused too (the scorer makes
/// neither). An unknown metric id is interned (metricKey()), as the scorer would intern it.
bool decodeVerdict(std::string_view bytes, Verdict& out, std::string* error = nullptr);

} // namespace structscope
