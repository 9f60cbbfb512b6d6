// A C++ program using libdungeon through its C header and the static library:
// RAII around dg_result, a lambda as the export callback, every registered
// generator run from a recipe line. Built and run by `make check` (tests/cpp.sh):
//
//   c++ -std=c++11 -Iinclude examples/cpp_consumer.cpp build/libdungeon.a -o cpp_consumer
//   ./cpp_consumer [RECIPE...]
#include <dungeon.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// Owns a dg_result for its lifetime.
struct Result {
    dg_result r;
    Result() { dg_result_init(&r, nullptr); }
    ~Result() { dg_result_free(&r); }
    Result(const Result &) = delete;
    Result &operator=(const Result &) = delete;
};

void check(dg_status st, const dg_diag &diag, const char *what)
{
    if (st != DG_OK)
        throw std::runtime_error(std::string(what) + ": " + dg_status_str(st) + ": " + diag.message);
}

// A generated map: the cells live in a std::vector the grid points into.
struct Map {
    dg_recipe recipe;
    std::vector<uint8_t> cells;
    dg_grid grid;
    Result result;

    explicit Map(const std::string &line)
    {
        dg_diag diag = {};
        check(dg_recipe_parse(line.data(), line.size(), &recipe, &diag), diag, "recipe");
        cells.assign(static_cast<size_t>(recipe.width) * static_cast<size_t>(recipe.height), 0);
        check(dg_grid_init(&grid, cells.data(), recipe.width, recipe.height, 0), diag, "grid");
        check(dg_recipe_generate(&recipe, &grid, nullptr, &result.r, nullptr, &diag), diag, "generate");
    }

    std::string recipe_line() const
    {
        size_t len = 0;
        dg_recipe_print(&recipe, nullptr, 0, &len);
        std::string s(len + 1, '\0');
        dg_recipe_print(&recipe, &s[0], s.size(), nullptr);
        s.resize(len);
        return s;
    }

    // The export through the callback, appended to a std::string.
    std::string export_text(int32_t format) const
    {
        std::string out;
        dg_export_options opt;
        dg_export_defaults(&opt);
        opt.format = format;
        opt.recipe = &recipe;
        dg_diag diag = {};
        auto append = [](void *user, const char *data, size_t len) {
            static_cast<std::string *>(user)->append(data, len);
        };
        check(dg_export(&grid, &result.r, &opt, append, &out, &diag), diag, "export");
        return out;
    }
};

int passed = 0, failed = 0;

void expect(bool ok, const std::string &what)
{
    if (ok)
        passed++;
    else
    {
        failed++;
        std::printf("FAIL: %s\n", what.c_str());
    }
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> lines;
    for (int i = 1; i < argc; i++)
        lines.push_back(argv[i]);
    if (lines.empty())
        for (int32_t i = 0; i < dg_generator_count(); i++)
        {
            dg_generator_info info;
            dg_generator_get(i, &info);
            if (!info.needs_prefabs && !info.needs_graph)
                lines.push_back(std::string(info.name) + " seed=7 width=70 height=40");
        }
    expect(!lines.empty(), "at least one generator");
    try
    {
        for (const std::string &line : lines)
        {
            Map a(line);
            Map b(a.recipe_line()); // saving a dungeon = saving its recipe
            expect(a.cells == b.cells, line + ": the printed recipe regenerates the same cells");
            expect(a.result.r.room_count == b.result.r.room_count, line + ": same rooms");
            std::string json = a.export_text(DG_EXPORT_JSON), tmx = a.export_text(DG_EXPORT_TMX);
            expect(json.find(a.recipe_line()) != std::string::npos, line + ": JSON carries the recipe");
            expect(tmx.compare(0, 5, "<?xml") == 0, line + ": TMX is XML");
            std::printf("%-10s %3d rooms  %5d floor cells  hash %016llx\n", a.recipe.generator,
                        static_cast<int>(a.result.r.room_count),
                        static_cast<int>(a.result.r.metrics.floor_cells),
                        static_cast<unsigned long long>(dg_grid_hash(&a.grid)));
        }
        bool threw = false;
        try
        {
            Map bad("attach seed=1 doors=maybe");
        }
        catch (const std::runtime_error &e)
        {
            threw = std::strstr(e.what(), "doors") != nullptr;
        }
        expect(threw, "a bad recipe is reported with the parameter's name");
    }
    catch (const std::exception &e)
    {
        expect(false, e.what());
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
