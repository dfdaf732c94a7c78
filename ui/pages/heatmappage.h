// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "analysis/heatmapdata.h"
#include "pages/page.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace structscope {

class GoldToggle;
class HeatmapModel;
class HeatmapWidget;
class MetricPicker;

/// Any metric by model (or model × strategy) against category, tier, source kind, modality,
/// suite or strategy, as a heatmap. Clicking a cell asks for that cell's cases.
class HeatmapPage : public Page
{
    Q_OBJECT
public:
    explicit HeatmapPage(Workspace* workspace, QWidget* parent = nullptr);

    QString title() const override { return tr("Heatmap"); }
    QString pageId() const override { return QStringLiteral("heatmap"); }
    QList<NamedChart> charts() override;
    std::optional<Report> table() const override;
    QString tableCaption() const override;

    HeatmapWidget* heatmap() const { return m_heatmap; }
    /// The same cells as a table (value, interval, n).
    HeatmapModel* tableModel() const { return m_model; }
    MetricPicker* metricPicker() const { return m_picker; }
    /// The column key ("category", "tier", ...); false for a key that is not offered.
    bool setColumnKey(const QString& key);
    void setRowsByStrategy(bool byStrategy);

    /// The column keys the page offers, in menu order ("field": the gold's fields, docs/metrics.md "Fields").
    static QStringList columnKeys();

    /// With the Field choice: fields as rows and models as columns (the default), or the other way round.
    void setFieldsAsRows(bool rows);
    /// With the Field choice: each field, or one line per top-level key of the gold.
    void setFieldsByTopLevelKey(bool byRoot);
    /// With the Field choice: only the fields whose path contains this text.
    void setFieldFilter(const QString& text);
    QLineEdit* fieldFilter() const { return m_fieldFilter; }

protected:
    void reload() override;
    void reportReady(const ReportDataPtr& data, const QString& error) override;

private:
    void rebuild();
    std::vector<std::string> rowKeys() const;
    void updateSortCombos();
    bool byField() const;
    /// The grouping key of the field axis: "field" or "field_root".
    std::string fieldAxisKey() const;
    /// The heatmap's row keys and column key as laid out now.
    std::vector<std::string> shownRowKeys() const;
    std::string shownColumnKey() const;

    HeatmapWidget* m_heatmap;
    HeatmapModel* m_model;
    QTableView* m_table;
    MetricPicker* m_picker;
    GoldToggle* m_gold;
    QComboBox* m_rows;
    QComboBox* m_columns;
    QComboBox* m_rowSort;
    QComboBox* m_columnSort;
    QWidget* m_fieldBar;
    QComboBox* m_fieldLevel;
    QCheckBox* m_fieldRows;
    QLineEdit* m_fieldFilter;
    QLabel* m_status;
};

} // namespace structscope
