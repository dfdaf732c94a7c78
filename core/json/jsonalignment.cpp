// SPDX-License-Identifier: Apache-2.0
#include "json/jsonalignment.h"

#include "json/leafpaths.h"

#include <algorithm>
#include <unordered_map>

using nlohmann::json;

namespace structscope {

namespace {

// Lower wins when several differences share a pointer.
int precedence(DiffKind kind)
{
    switch (kind) {
    case DiffKind::MissingKey:
        return 0;
    case DiffKind::MissingValue:
        return 1;
    case DiffKind::WrongValue:
        return 2;
    case DiffKind::ExtraKey:
        return 3;
    }
    return 4;
}

class Aligner
{
public:
    explicit Aligner(const std::vector<Difference>& differences)
    {
        for (const Difference& d : differences)
            (d.kind == DiffKind::ExtraKey ? m_extra : m_goldSide)[d.pointer].push_back(&d);
    }

    std::vector<AlignedRow> rows;

    void walk(const json* gold, const json* predicted, const std::string& pointer, const std::string& path,
        const std::string& key, int depth)
    {
        const std::size_t index = rows.size();
        AlignedRow row;
        row.pointer = pointer;
        row.path = path;
        row.key = key;
        row.depth = depth;
        if (gold)
            row.gold = *gold;
        if (predicted)
            row.predicted = *predicted;
        markRow(row, gold != nullptr);
        rows.push_back(std::move(row));

        const bool goldObject = gold && gold->is_object();
        const bool goldArray = gold && gold->is_array();
        const bool predictedObject = predicted && predicted->is_object();
        const bool predictedArray = predicted && predicted->is_array();
        if (goldObject) {
            for (auto it = gold->begin(); it != gold->end(); ++it) {
                const json* p = nullptr;
                if (predictedObject) {
                    const auto found = predicted->find(it.key());
                    p = found != predicted->end() ? &*found : nullptr;
                }
                child(&it.value(), p, pointer, path, it.key(), depth);
            }
        } else if (goldArray) {
            for (std::size_t i = 0; i < gold->size(); ++i) {
                const json* p = predictedArray && i < predicted->size() ? &(*predicted)[i] : nullptr;
                childIndex(&(*gold)[i], p, pointer, path, i, depth);
            }
        }
        if (predictedObject) {
            for (auto it = predicted->begin(); it != predicted->end(); ++it) {
                if (!goldObject || !gold->contains(it.key()))
                    child(nullptr, &it.value(), pointer, path, it.key(), depth);
            }
        } else if (predictedArray) {
            for (std::size_t i = goldArray ? gold->size() : 0; i < predicted->size(); ++i)
                childIndex(nullptr, &(*predicted)[i], pointer, path, i, depth);
        }
        finishContainer(index);
    }

private:
    void child(const json* gold, const json* predicted, const std::string& pointer, const std::string& path,
        const std::string& key, int depth)
    {
        std::string childPath = path;
        appendPathKey(childPath, key);
        walk(gold, predicted, pointerJoin(pointer, key), childPath, key, depth + 1);
    }

    void childIndex(const json* gold, const json* predicted, const std::string& pointer, const std::string& path,
        std::size_t i, int depth)
    {
        std::string childPath = path;
        appendPathIndex(childPath, i);
        walk(gold, predicted, pointerJoin(pointer, std::to_string(i)), childPath, "[" + std::to_string(i) + "]",
            depth + 1);
    }

    void markRow(AlignedRow& row, bool inGold)
    {
        std::vector<const Difference*> here;
        if (inGold) {
            if (const auto it = m_goldSide.find(row.pointer); it != m_goldSide.end())
                here = it->second;
        }
        if (!row.gold) {
            if (const auto it = m_extra.find(row.pointer); it != m_extra.end())
                here.insert(here.end(), it->second.begin(), it->second.end());
        }
        if (here.empty())
            return;
        std::stable_sort(here.begin(), here.end(),
            [](const Difference* a, const Difference* b) { return precedence(a->kind) < precedence(b->kind); });
        row.mark = diffMarkOf(*here.front());
        row.levenshtein = here.front()->levenshtein;
        row.alsoMissingValue = row.mark == DiffMark::MissingKey
            && std::any_of(
                here.begin(), here.end(), [](const Difference* d) { return d->kind == DiffKind::MissingValue; });
    }

    // Containers are not leaves, so diffJson names their leaves; the container row summarises them.
    void finishContainer(std::size_t index)
    {
        bool below = false;
        bool missingBelow = false;
        const int depth = rows[index].depth;
        for (std::size_t i = index + 1; i < rows.size() && rows[i].depth > depth; ++i) {
            below = below || rows[i].mark != DiffMark::Same;
            missingBelow = missingBelow || rows[i].mark == DiffMark::MissingKey;
        }
        AlignedRow& row = rows[index];
        row.differenceBelow = below;
        if (row.mark != DiffMark::Same)
            return;
        if (row.goldIsContainer() && !row.predicted && missingBelow)
            row.mark = DiffMark::MissingKey;
        else if (!row.gold && row.predictedIsContainer() && index > 0)
            row.mark = DiffMark::ExtraKey;
        else if (row.goldIsContainer() && row.predicted && !row.predicted->is_null() && !row.predictedIsContainer())
            row.mark = DiffMark::TypeMismatch;
        else if (row.goldIsContainer() && row.predicted && row.predicted->is_null() && below)
            row.mark = DiffMark::MissingValue;
    }

    std::unordered_map<std::string, std::vector<const Difference*>> m_goldSide;
    std::unordered_map<std::string, std::vector<const Difference*>> m_extra;
};

} // namespace

const std::vector<DiffMark>& diffMarks()
{
    static const std::vector<DiffMark> marks = { DiffMark::MissingKey, DiffMark::MissingValue, DiffMark::Deviation,
        DiffMark::ValueError, DiffMark::Coercible, DiffMark::TypeMismatch, DiffMark::Invented, DiffMark::ExtraKey };
    return marks;
}

const char* diffMarkId(DiffMark mark)
{
    switch (mark) {
    case DiffMark::Same:
        return "";
    case DiffMark::MissingKey:
        return "missing_key";
    case DiffMark::MissingValue:
        return "missing_value";
    case DiffMark::Deviation:
        return "deviation";
    case DiffMark::ValueError:
        return "value_error";
    case DiffMark::Coercible:
        return "coercible";
    case DiffMark::TypeMismatch:
        return "type_mismatch";
    case DiffMark::Invented:
        return "invented";
    case DiffMark::ExtraKey:
        return "extra_key";
    }
    return "";
}

DiffMark diffMarkOf(const Difference& difference)
{
    switch (difference.kind) {
    case DiffKind::MissingKey:
        return DiffMark::MissingKey;
    case DiffKind::MissingValue:
        return DiffMark::MissingValue;
    case DiffKind::ExtraKey:
        return DiffMark::ExtraKey;
    case DiffKind::WrongValue:
        break;
    }
    if (difference.goldNull)
        return DiffMark::Invented;
    switch (difference.wrongKind) {
    case WrongValueKind::Deviation:
        return DiffMark::Deviation;
    case WrongValueKind::ValueError:
        return DiffMark::ValueError;
    case WrongValueKind::Coercible:
        return DiffMark::Coercible;
    case WrongValueKind::TypeError:
    case WrongValueKind::None:
        break;
    }
    return DiffMark::TypeMismatch;
}

std::vector<AlignedRow> alignJson(const json& gold, const json* predicted, const std::vector<Difference>& differences)
{
    Aligner aligner(differences);
    aligner.walk(&gold, predicted, std::string(), std::string(), std::string(), 0);
    return std::move(aligner.rows);
}

std::vector<int> differenceRows(const std::vector<AlignedRow>& rows)
{
    std::vector<int> result;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].mark != DiffMark::Same)
            result.push_back(int(i));
    }
    return result;
}

int stepDifference(const std::vector<int>& differenceRows, int current, bool forward)
{
    if (differenceRows.empty())
        return -1;
    if (forward) {
        const auto next = std::upper_bound(differenceRows.begin(), differenceRows.end(), current);
        return next != differenceRows.end() ? *next : differenceRows.front();
    }
    const auto previous = std::lower_bound(differenceRows.begin(), differenceRows.end(), current);
    return previous != differenceRows.begin() ? *(previous - 1) : differenceRows.back();
}

} // namespace structscope
