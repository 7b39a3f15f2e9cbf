// Uniform random playouts over KataGo's Board (the policy of `ikeda simulate`, benches/katago/README.md):
// uniform among legal points that are not the mover's simple eye, pass only when none,
// two passes in a row end the game, cap 3*N*N. Prints moves/s and games/s.
#include "cpp/game/board.h"
#include "cpp/core/rand.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
  int n = argc > 1 ? atoi(argv[1]) : 9;
  double secs = argc > 2 ? atof(argv[2]) : 3.0;
  Board::initHash();
  Rand rand((uint64_t)12345);
  std::vector<Loc> empties; std::vector<int> pos(Board::MAX_ARR_SIZE, -1);
  long long moves = 0, games = 0;
  auto run_game = [&]() {
    Board b(n, n);
    empties.clear(); std::fill(pos.begin(), pos.end(), -1);
    for (int y = 0; y < n; y++) for (int x = 0; x < n; x++) {
      Loc l = Location::getLoc(x, y, n); pos[l] = empties.size(); empties.push_back(l); }
    Player pla = P_BLACK; int passes = 0; int cap = 3 * n * n; int ply = 0;
    int adj[4] = {-1, 1, -(n + 1), n + 1};
    while (ply < cap) {
      int k = empties.size(); Loc chosen = Board::PASS_LOC;
      while (k > 0) {
        int i = rand.nextUInt(k); Loc l = empties[i];
        if (b.isLegal(l, pla, false) && !b.isSimpleEye(l, pla)) { chosen = l; break; }
        Loc last = empties[k - 1]; empties[k - 1] = l; empties[i] = last; pos[l] = k - 1; pos[last] = i; k--;
      }
      if (chosen == Board::PASS_LOC) {
        b.playMoveAssumeLegal(Board::PASS_LOC, pla); passes++;
      } else {
        Color opp = getOpp(pla);
        bool nb_opp[4]; for (int d = 0; d < 4; d++) nb_opp[d] = b.colors[chosen + adj[d]] == opp;
        b.playMoveAssumeLegal(chosen, pla); passes = 0;
        int i = pos[chosen]; Loc last = empties.back(); empties[i] = last; pos[last] = i; empties.pop_back(); pos[chosen] = -1;
        for (int d = 0; d < 4; d++) {
          Loc s = chosen + adj[d];
          if (nb_opp[d] && b.colors[s] == C_EMPTY && pos[s] == -1) {
            std::vector<Loc> stack{s}; pos[s] = empties.size(); empties.push_back(s);
            while (!stack.empty()) { Loc p = stack.back(); stack.pop_back();
              for (int e = 0; e < 4; e++) { Loc q = p + adj[e];
                if (b.colors[q] == C_EMPTY && pos[q] == -1) { pos[q] = empties.size(); empties.push_back(q); stack.push_back(q); } } }
          }
        }
      }
      ply++; pla = getOpp(pla);
      if (passes >= 2) break;
    }
    moves += ply; games++;
  };
  for (int w = 0; w < 20; w++) run_game();
  moves = games = 0;
  auto t0 = std::chrono::steady_clock::now(); double el = 0;
  while (el < secs) { for (int r = 0; r < 50; r++) run_game();
    el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
  printf("{\"engine\": \"katago-board\", \"size\": %d, \"moves_per_s\": %.0f, \"games_per_s\": %.1f, \"mean_len\": %.2f}\n",
         n, moves / el, games / el, (double)moves / games);
}
