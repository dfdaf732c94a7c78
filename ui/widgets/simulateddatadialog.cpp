// SPDX-License-Identifier: Apache-2.0
#include "widgets/simulateddatadialog.h"

#include "analysis/metricformat.h"
#include "demo/demogoldmistakes.h"
#include "providers/pricetable.h"
#include "providers/strategy.h"
#include "sim/simprofile.h"
#include "sim/simulator.h"
#include "suite/suiteloader.h"
#include "suite/suitelocator.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <iterator>

using namespace Qt::StringLiterals;

namespace structscope {

namespace {

/// The dialog's translation, for the helpers below and the QT_TRANSLATE_NOOP texts.
QString tr(const char* text)
{
    return SimulatedDataDialog::tr(text);
}

/// One rate of SimProfile, with the strategy factor that scales it (nullptr: none does).
struct FaultRow
{
    const char* group;
    double SimProfile::*rate;
    double StrategyEffect::*factor;
    const char* name;
    const char* counted;
    const char* what;
};

// Every rate of SimProfile, grouped by what it breaks. The long-input factor is not a probability:
// it multiplies the omitted, wrong and near-miss value rates.
const FaultRow kFaultRows[] = {
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Around the JSON"), &SimProfile::codeFence,
        &StrategyEffect::format, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "code fence"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per answer"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "The JSON comes wrapped in a ``` Markdown fence.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Around the JSON"), &SimProfile::prose,
        &StrategyEffect::format, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "prose"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per answer"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Sentences before or after the JSON.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Around the JSON"), &SimProfile::truncate,
        &StrategyEffect::truncate, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "truncated"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per answer, more for long answers"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog",
            "The text stops early, as at a token limit: the JSON does not parse.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Keys"), &SimProfile::dropKey, &StrategyEffect::keys,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "dropped key"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per key holding a value"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "A key of the gold is left out.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Keys"), &SimProfile::extraKey, &StrategyEffect::keys,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "extra key"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per object"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "A key the schema does not declare is added.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Values"), &SimProfile::omitValue, &StrategyEffect::values,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "omitted value"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per stated value"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "null instead of a value the input states.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Values"), &SimProfile::wrongValue, &StrategyEffect::values,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "wrong value"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per leaf"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Another value of the same type.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Values"), &SimProfile::nearMiss, &StrategyEffect::values,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "near miss"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per free-text string"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "A one-character edit of a string.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Values"), &SimProfile::coercion, &StrategyEffect::coercion,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "coercion"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per number or boolean"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Written as a string: \"42\" for 42.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Values"), &SimProfile::inventValue,
        &StrategyEffect::values, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "invented value"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per null or absent key"),
        QT_TRANSLATE_NOOP(
            "structscope::SimulatedDataDialog", "A made-up value where the input says nothing (a hallucination).") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Values"), &SimProfile::longInput, nullptr,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "long input"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per 500 input characters beyond 500"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog",
            "Not a chance: how much the omitted, wrong and near-miss value rates grow with the input's length.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Schema"), &SimProfile::schemaViolation,
        &StrategyEffect::schema, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "schema violation"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per answer"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "A value outside its enum, or of the wrong type.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Decisions (contract suites such as OrderBench)"),
        &SimProfile::unsafeFlip, &StrategyEffect::decision,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "unsafe acceptance"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per answer gold does not accept"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Accepts an order the gold refuses or asks about.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Decisions (contract suites such as OrderBench)"),
        &SimProfile::overRefusal, &StrategyEffect::decision,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "over-refusal"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per accepted answer"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Asks back instead of accepting a clear order.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Decisions (contract suites such as OrderBench)"),
        &SimProfile::catalogInvention, &StrategyEffect::decision,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "invented SKU"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per item"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "An item the catalog does not have.") },
    { QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Decisions (contract suites such as OrderBench)"),
        &SimProfile::wrongQuantity, &StrategyEffect::decision,
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "wrong quantity"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "per item"),
        QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "A quantity off by one.") },
};

/// A column of the strategy table: one factor of StrategyEffect.
struct FactorColumn
{
    double StrategyEffect::*factor;
    const char* title;
};

const FactorColumn kFactorColumns[] = {
    { &StrategyEffect::format, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Fences & prose") },
    { &StrategyEffect::truncate, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Truncation") },
    { &StrategyEffect::keys, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Keys") },
    { &StrategyEffect::values, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Values") },
    { &StrategyEffect::coercion, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Coercion") },
    { &StrategyEffect::schema, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Schema") },
    { &StrategyEffect::decision, QT_TRANSLATE_NOOP("structscope::SimulatedDataDialog", "Decisions") },
};

/// "25%", "0.2%"; "—" for a fault that never happens.
QString percentText(double rate)
{
    return rate > 0 ? QLocale().toString(rate * 100.0, 'g', 3) + u'%' : u"—"_s;
}

/// "+300% per 500 chars"; "—" when the profile does not lose track in long inputs.
QString growthText(double factor)
{
    return factor > 0 ? tr("+%1% per 500 chars").arg(QLocale().toString(factor * 100.0, 'g', 3)) : u"—"_s;
}

QString factorText(double factor)
{
    return u"×"_s + QLocale().toString(factor, 'g', 3);
}

/// The faults a factor scales: "code fence, prose".
QString scaledFaults(double StrategyEffect::*factor)
{
    QStringList names;
    for (const FaultRow& row : kFaultRows) {
        if (row.factor == factor)
            names << tr(row.name);
    }
    return names.join(u", "_s);
}

/// What a strategy puts into the request, from the strategy's own predicates.
QString requestText(Strategy s)
{
    QStringList parts;
    if (strategyPutsSchemaInPrompt(s))
        parts << tr("schema in the prompt");
    if (strategyUsesJsonMode(s))
        parts << tr("JSON mode");
    if (strategyUsesSchemaFormat(s))
        parts << tr("response schema enforced");
    return parts.isEmpty() ? tr("plain prompt") : parts.join(u", "_s);
}

QLabel* makeText(const QString& html, QWidget* parent)
{
    auto* label = new QLabel(html, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    return label;
}

/// Word-wraps a column's text at the column's width: QTreeView asks its delegate for a row's height
/// without saying how wide the column is. First-column-spanned rows wrap at the view's width.
class WrappingDelegate final : public QStyledItemDelegate
{
public:
    explicit WrappingDelegate(QTreeView* view)
        : QStyledItemDelegate(view)
        , m_view(view)
    { }

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        int width = m_view->isFirstColumnSpanned(index.row(), index.parent()) ? m_view->viewport()->width()
                                                                              : m_view->columnWidth(index.column());
        if (index.column() == 0) {
            int depth = m_view->rootIsDecorated() ? 1 : 0;
            for (QModelIndex p = index.parent(); p.isValid(); p = p.parent())
                ++depth;
            width -= depth * m_view->indentation();
        }
        QStyleOptionViewItem wrapped = option;
        wrapped.rect = QRect(0, 0, std::max(width, 40), 1);
        return QStyledItemDelegate::sizeHint(wrapped, index);
    }

private:
    QTreeView* m_view;
};

/// A read-only table; `wrapColumns` wrap their text (they must not size to their contents).
QTreeWidget* makeTree(
    const QString& objectName, const QStringList& headers, QWidget* parent, std::initializer_list<int> wrapColumns = {})
{
    auto* tree = new QTreeWidget(parent);
    tree->setObjectName(objectName);
    tree->setColumnCount(int(headers.size()));
    tree->setHeaderLabels(headers);
    tree->setWordWrap(true);
    tree->setAlternatingRowColors(true);
    tree->setUniformRowHeights(false);
    tree->setRootIsDecorated(false);
    tree->setSelectionMode(QAbstractItemView::NoSelection);
    // QTreeView keeps its row heights when a column is resized: lay the rows out again, once per
    // burst of resizes, so that wrapped text gets the lines it needs.
    auto* relayout = new QTimer(tree);
    relayout->setSingleShot(true);
    relayout->setInterval(0);
    QObject::connect(relayout, &QTimer::timeout, tree, &QTreeView::doItemsLayout);
    QObject::connect(tree->header(), &QHeaderView::sectionResized, relayout, qOverload<>(&QTimer::start));
    if (wrapColumns.size() > 0) {
        auto* wrapping = new WrappingDelegate(tree);
        for (int column : wrapColumns)
            tree->setItemDelegateForColumn(column, wrapping);
    }
    return tree;
}

QTreeWidgetItem* makeGroupItem(QTreeWidget* tree, const QString& title)
{
    auto* item = new QTreeWidgetItem(tree, { title });
    item->setFirstColumnSpanned(true);
    item->setFlags(Qt::ItemIsEnabled);
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    return item;
}

/// What the Suites tab shows of a built-in suite, read off the GUI thread.
struct SuiteSummary
{
    QString dir;
    QString id;
    QString name;
    QString version;
    QString license;
    QString description;
    QString generatedBy;
    QString problem; ///< set when the suite does not load
    qsizetype cases = 0;
};

QList<SuiteSummary> readSuites(const QStringList& dirs)
{
    QList<SuiteSummary> summaries;
    for (const QString& dir : dirs) {
        SuiteSummary s;
        s.dir = dir;
        s.id = QFileInfo(dir).fileName();
        const SuiteLoadResult loaded = loadSuiteDir(dir);
        if (!loaded.ok()) {
            const auto error = std::find_if(
                loaded.problems.cbegin(), loaded.problems.cend(), [](const Problem& p) { return !p.warning; });
            s.problem = error == loaded.problems.cend() ? tr("does not load") : error->toString();
            summaries << s;
            continue;
        }
        const Suite& suite = *loaded.suite;
        s.id = suite.id;
        s.name = suite.name;
        s.version = suite.version;
        s.license = suite.license;
        s.description = suite.description;
        s.cases = suite.cases.size();
        if (const auto it = suite.manifest.find("generated_by"); it != suite.manifest.end() && it->is_string())
            s.generatedBy = QString::fromStdString(it->get<std::string>());
        summaries << s;
    }
    return summaries;
}

void fillSuites(QTreeWidget* tree, const QList<SuiteSummary>& suites)
{
    tree->clear();
    if (suites.isEmpty()) {
        makeGroupItem(tree, tr("No built-in suites were found."));
        return;
    }
    for (const SuiteSummary& s : suites) {
        const QString folder = QDir::toNativeSeparators(s.dir);
        auto* item = new QTreeWidgetItem(tree);
        item->setFlags(Qt::ItemIsEnabled);
        if (!s.problem.isEmpty()) {
            item->setText(0, s.id);
            item->setText(1, tr("does not load"));
            item->setText(4, folder);
            auto* problem = new QTreeWidgetItem(item, { s.problem });
            problem->setFirstColumnSpanned(true);
            problem->setFlags(Qt::ItemIsEnabled);
            continue;
        }
        item->setText(0, tr("%1 (%2)").arg(s.name, s.id));
        item->setText(1, s.version);
        item->setText(2, QLocale().toString(qlonglong(s.cases)));
        item->setData(2, SimulatedDataDialog::ValueRole, qlonglong(s.cases));
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        item->setText(3, s.license);
        item->setText(4, folder);
        const QString readme = s.dir + u"/README.md"_s;
        const QString where = QFileInfo::exists(readme)
            ? tr("%1\nIts README (counts, sources, licence): %2").arg(folder, QDir::toNativeSeparators(readme))
            : folder;
        for (int c = 0; c < 4; ++c)
            item->setToolTip(c, s.description);
        item->setToolTip(4, where);
        QString origin = s.description;
        if (!s.generatedBy.isEmpty())
            origin += u"\n"_s + tr("Generated by %1.").arg(s.generatedBy);
        auto* description = new QTreeWidgetItem(item, { origin });
        description->setFirstColumnSpanned(true);
        description->setFlags(Qt::ItemIsEnabled);
        description->setToolTip(0, where);
    }
    tree->expandAll();
}

} // namespace

SimulatedDataDialog::SimulatedDataDialog(QWidget* parent)
    : QDialog(parent)
    , m_tabs(new QTabWidget(this))
{
    setWindowTitle(tr("About the Data"));
    setObjectName(u"aboutTheData"_s);
    m_pool.setMaxThreadCount(1);

    const QString label = displayModelName(simProfiles().isEmpty() ? u"oracle"_s : simProfiles().first().name, true);
    auto* intro = makeText(
        tr("<p><b>Simulated models are not language models, and their scores say nothing about any real "
           "model.</b> StructScope ships them so that every page has data without a network or an API key, "
           "and so that the metrics can be checked against faults that are known.</p>"
           "<p>A simulated answer is the case's <i>gold</i> answer with faults injected by a seeded random "
           "generator: the same profile, suite, case, strategy and repeat give the same answer, byte for byte, "
           "on every machine. No request is sent: tokens are estimated from the text, latencies are computed, "
           "not measured, and costs use nominal prices. Every view labels these models, e.g. “%1”.</p>")
            .arg(label.toHtmlEscaped()),
        this);
    intro->setObjectName(u"aboutTheDataIntro"_s);

    m_tabs->addTab(makeProfilesTab(), tr("Profiles"));
    m_tabs->addTab(makeRatesTab(), tr("Fault rates"));
    m_tabs->addTab(makeStrategiesTab(), tr("Strategies"));
    m_tabs->addTab(makeSuitesTab(), tr("Built-in suites"));
    m_tabs->addTab(makeGoldMistakesTab(), tr("Demo gold mistakes"));
    m_tabs->setTabToolTip(0, tr("What each simulated model does, and how fast it seems"));
    m_tabs->setTabToolTip(1, tr("The chance of each fault, per simulated model"));
    m_tabs->setTabToolTip(2, tr("How the output strategy scales the fault rates"));
    m_tabs->setTabToolTip(3, tr("The suites that come with StructScope: where their cases come from"));
    m_tabs->setTabToolTip(4, tr("The mistakes the demo workspace plants in its gold, for the Audit page to find"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_tabs, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(920, 660);
    loadSuites();
}

SimulatedDataDialog::~SimulatedDataDialog()
{
    m_pool.waitForDone();
}

SimulatedDataDialog* SimulatedDataDialog::showFor(QWidget* parent)
{
    QWidget* window = parent ? parent->window() : nullptr;
    auto* dialog = window ? window->findChild<SimulatedDataDialog*>() : nullptr;
    if (!dialog)
        dialog = new SimulatedDataDialog(window);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

QWidget* SimulatedDataDialog::makeProfilesTab()
{
    auto* tab = new QWidget(this);
    m_profiles = makeTree(u"simulatedProfiles"_s,
        { tr("Model"), tr("Writes"), tr("What it does"), tr("Pace"), tr("Nominal price") }, tab, { 2 });
    const QString priceWhy = tr("Dollars per million input and output tokens, from the price table "
                                "(StructScope's own, or prices.json in its config folder). Simulated models carry "
                                "nominal prices so that demo reports show costs: they are not real.");
    m_profiles->headerItem()->setToolTip(4, priceWhy);
    const PriceTable prices = PriceTable::loadDefault();
    for (const SimProfile& p : simProfiles()) {
        const QString pace
            = tr("%1 ms + %2 ms/token").arg(QLocale().toString(p.baseLatencyMs), QLocale().toString(p.msPerToken));
        auto* item = new QTreeWidgetItem(
            m_profiles, { p.name, p.pretty ? tr("indented JSON") : tr("compact JSON"), p.description, pace });
        item->setFlags(Qt::ItemIsEnabled);
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
        for (int c = 0; c < 3; ++c)
            item->setToolTip(c, p.description);
        item->setToolTip(3,
            tr("Time to first token %1 ms (plus a little per input token), then %2 ms per output token, with "
               "seeded jitter and now and then a slow answer. Computed, never waited for.")
                .arg(QLocale().toString(p.baseLatencyMs), QLocale().toString(p.msPerToken)));
        ModelSpec spec;
        spec.kind = ProviderKind::Sim;
        spec.model = p.name;
        if (const std::optional<ModelPrice> price = prices.find(spec)) {
            item->setText(4,
                tr("$%1 in, $%2 out")
                    .arg(QLocale().toString(price->inputPerMillion, 'f', 2),
                        QLocale().toString(price->outputPerMillion, 'f', 2)));
            item->setData(4, ValueRole, QVariantList { price->inputPerMillion, price->outputPerMillion });
            item->setToolTip(4, priceWhy);
        } else {
            item->setText(4, tr("none"));
            item->setToolTip(4, tr("The price table has no price for %1: its cost is unknown").arg(spec.label()));
        }
    }
    QHeaderView* header = m_profiles->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(2, QHeaderView::Stretch);
    header->setSectionResizeMode(3, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(4, QHeaderView::ResizeToContents);

    auto* layout = new QVBoxLayout(tab);
    layout->addWidget(makeText(tr("Each simulated model is a named mix of fault rates (see <i>Fault rates</i>), "
                                  "a pace and a nominal price. Hover a row for its whole description."),
        tab));
    layout->addWidget(m_profiles, 1);
    return tab;
}

QWidget* SimulatedDataDialog::makeRatesTab()
{
    auto* tab = new QWidget(this);
    QStringList headers { tr("Fault"), tr("Counted") };
    for (const SimProfile& p : simProfiles())
        headers << p.name;
    m_rates = makeTree(u"simulatedRates"_s, headers, tab);
    m_rates->setRootIsDecorated(true);
    for (int c = 0; c < int(simProfiles().size()); ++c)
        m_rates->headerItem()->setToolTip(2 + c, simProfiles()[c].description);

    QTreeWidgetItem* group = nullptr;
    QString currentGroup;
    for (const FaultRow& row : kFaultRows) {
        if (tr(row.group) != currentGroup) {
            currentGroup = tr(row.group);
            group = makeGroupItem(m_rates, currentGroup);
        }
        auto* item = new QTreeWidgetItem(group, { tr(row.name), tr(row.counted) });
        item->setFlags(Qt::ItemIsEnabled);
        item->setToolTip(0, tr(row.what));
        item->setToolTip(1, tr(row.what));
        for (int c = 0; c < int(simProfiles().size()); ++c) {
            const SimProfile& p = simProfiles()[c];
            const double value = p.*row.rate;
            const int column = 2 + c;
            item->setText(column, row.factor ? percentText(value) : growthText(value));
            item->setData(column, ValueRole, value);
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(column,
                value > 0 ? tr("%1: %2 — %3").arg(p.name, item->text(column), tr(row.what))
                          : tr("%1 never does this").arg(p.name));
        }
    }
    m_rates->expandAll();
    QHeaderView* header = m_rates->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* layout = new QVBoxLayout(tab);
    layout->addWidget(makeText(tr("The chance that each fault is injected, as the profile sets it (strategy P). "
                                  "Most faults are drawn per place in the answer, so a larger answer collects "
                                  "more of them. Hover a cell or a name for what the fault does."),
        tab));
    layout->addWidget(m_rates, 1);
    return tab;
}

QWidget* SimulatedDataDialog::makeStrategiesTab()
{
    auto* tab = new QWidget(this);
    QStringList headers { tr("Strategy"), tr("The request") };
    for (const FactorColumn& column : kFactorColumns)
        headers << tr(column.title);
    m_strategies = makeTree(u"simulatedStrategies"_s, headers, tab);
    for (int c = 0; c < int(std::size(kFactorColumns)); ++c)
        m_strategies->headerItem()->setToolTip(2 + c, tr("Multiplies: %1").arg(scaledFaults(kFactorColumns[c].factor)));

    for (Strategy s : allStrategies()) {
        const StrategyEffect effect = strategyEffect(s);
        auto* item = new QTreeWidgetItem(m_strategies, { strategyName(s), requestText(s) });
        item->setFlags(Qt::ItemIsEnabled);
        for (int c = 0; c < int(std::size(kFactorColumns)); ++c) {
            const double factor = effect.*kFactorColumns[c].factor;
            const int column = 2 + c;
            item->setText(column, factorText(factor));
            item->setData(column, ValueRole, factor);
            item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(column,
                factor == 0 ? tr("%1 rules out: %2").arg(strategyName(s), scaledFaults(kFactorColumns[c].factor))
                            : tr("%1 multiplies by %2: %3")
                                  .arg(strategyName(s), factorText(factor), scaledFaults(kFactorColumns[c].factor)));
        }
    }
    QHeaderView* header = m_strategies->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* layout = new QVBoxLayout(tab);
    layout->addWidget(makeText(tr("The output strategy is how the request asks for JSON. Each fault rate of a "
                                  "profile is multiplied by its strategy's factor for that group: ×1 keeps the "
                                  "profile's rate, ×0 rules the fault out."),
        tab));
    layout->addWidget(m_strategies, 1);
    layout->addWidget(makeText(tr("With a response schema (J+, PJ+), a fault that would make the answer invalid "
                                  "against the schema is undone, as a provider that enforces the schema never "
                                  "returns such a document; a token limit can still cut it short. Whatever the "
                                  "strategy, longer answers are cut more often, and some profiles make more value "
                                  "faults in long inputs (<i>long input</i> under Fault rates)."),
        tab));
    return tab;
}

QWidget* SimulatedDataDialog::makeSuitesTab()
{
    auto* tab = new QWidget(this);
    m_suites = makeTree(
        u"builtInSuites"_s, { tr("Suite"), tr("Version"), tr("Cases"), tr("Licence"), tr("Folder") }, tab, { 0, 3, 4 });
    m_suites->setRootIsDecorated(true);
    makeGroupItem(m_suites, tr("Reading the built-in suites…"));
    QHeaderView* header = m_suites->header();
    header->setStretchLastSection(true);
    header->setSectionResizeMode(0, QHeaderView::Interactive);
    header->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(3, QHeaderView::Interactive);
    header->resizeSection(0, 260);
    header->resizeSection(3, 220);

    QStringList roots;
    for (const QString& root : builtInSuiteRoots())
        roots << QDir::toNativeSeparators(root);
    auto* layout = new QVBoxLayout(tab);
    layout->addWidget(makeText(tr("Simulated answers are made from the gold of these suites, so a simulated score "
                                  "is about these cases and nothing else. Read from: %1.")
                                   .arg(roots.isEmpty() ? tr("no folder found") : roots.join(u", "_s).toHtmlEscaped()),
        tab));
    layout->addWidget(m_suites, 1);
    return tab;
}

QWidget* SimulatedDataDialog::makeGoldMistakesTab()
{
    auto* tab = new QWidget(this);
    m_mistakes = makeTree(u"demoGoldMistakes"_s,
        { tr("Suite"), tr("Case"), tr("Field"), tr("Stored gold"), tr("True value"), tr("Mistake") }, tab, { 5 });
    for (const DemoGoldMistake& m : demoGoldMistakes()) {
        const QString what = tr("%1: %2").arg(m.kind, m.note);
        auto* item = new QTreeWidgetItem(m_mistakes,
            { m.suite, m.caseId, QString::fromStdString(m.path), demoGoldValueText(m.planted),
                demoGoldValueText(m.truth), what });
        item->setFlags(Qt::ItemIsEnabled);
        for (int c = 0; c < 6; ++c)
            item->setToolTip(c, what);
    }
    QHeaderView* header = m_mistakes->header();
    header->setStretchLastSection(false);
    for (int c = 0; c < 5; ++c)
        header->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(5, QHeaderView::Stretch);

    auto* layout = new QVBoxLayout(tab);
    layout->addWidget(makeText(tr("<p>The demo workspace stores these cases' gold with a mistake of the kinds real "
                                  "gold has, while the simulated models answer from the suites' correct gold (the "
                                  "built-in suites themselves are right). They are there to show the gold audit: "
                                  "every model disagrees with the stored gold at these fields, so the "
                                  "<i>as measured</i> numbers count these cases as failed by every model, the "
                                  "oracle included, and the <b>Audit</b> page lists each with the true value as the "
                                  "models' consensus.</p><p>Accepting that value stores a corrected revision of the "
                                  "gold; with the <i>adjusted</i> gold the case scores as the models answered it. "
                                  "Each new demo workspace starts again from the planted gold.</p>"),
        tab));
    layout->addWidget(m_mistakes, 1);
    return tab;
}

void SimulatedDataDialog::loadSuites()
{
    QStringList dirs;
    for (const QString& name : builtInSuiteNames()) {
        if (const QString dir = resolveSuitePath(name); !dir.isEmpty())
            dirs << dir;
    }
    // Reading a suite parses every case and schema: off the GUI thread.
    QtConcurrent::run(&m_pool, [dirs] {
        return readSuites(dirs);
    }).then(this, [this](const QList<SuiteSummary>& suites) {
        fillSuites(m_suites, suites);
        m_suitesLoaded = true;
        Q_EMIT suitesLoaded();
    });
}

} // namespace structscope
